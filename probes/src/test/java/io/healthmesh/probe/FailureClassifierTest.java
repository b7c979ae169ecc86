package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;

class FailureClassifierTest {

    @Test
    void mapsEachKnownFailure() {
        assertThat(FailureClassifier.outcome(new ConnectException("Connection refused"))).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(FailureClassifier.outcome(new SocketException("Connection reset"))).isEqualTo(Outcome.CONNECTION_RESET);
        assertThat(FailureClassifier.outcome(new IOException("Connection reset by peer"))).isEqualTo(Outcome.CONNECTION_RESET);
        assertThat(FailureClassifier.outcome(new NoRouteToHostException("No route to host"))).isEqualTo(Outcome.HOST_UNREACHABLE);
        assertThat(FailureClassifier.outcome(new SocketException("Network is unreachable"))).isEqualTo(Outcome.HOST_UNREACHABLE);
        assertThat(FailureClassifier.outcome(new PortUnreachableException())).isEqualTo(Outcome.PORT_UNREACHABLE);
        assertThat(FailureClassifier.outcome(new UnknownHostException("x"))).isEqualTo(Outcome.DNS_FAILURE);
        assertThat(FailureClassifier.outcome(new IllegalStateException("bug"))).isEqualTo(Outcome.ERROR);
    }

    @Test
    void theProbersOwnExhaustionIsInconclusive() {
        assertThat(FailureClassifier.outcome(new java.util.concurrent.RejectedExecutionException("event loop terminated")))
                .isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(FailureClassifier.outcome(new IOException(new SocketException("Too many open files"))))
                .isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(FailureClassifier.outcome(new OutOfMemoryError("Direct buffer memory"))).isEqualTo(Outcome.INCONCLUSIVE);
    }

    @Test
    void followsCausesToFindTls() {
        DecoderException wrapped = new DecoderException(new SSLHandshakeException("PKIX path building failed"));
        assertThat(FailureClassifier.outcome(wrapped)).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(FailureClassifier.detail(wrapped)).isEqualTo("SSLHandshakeException: PKIX path building failed");
    }

    @Test
    void causeLoopsAndDeepChainsEndWithError() {
        Exception inner = new Exception("inner");
        Exception outer = new Exception("outer", inner);
        inner.initCause(outer);
        assertThat(FailureClassifier.outcome(outer)).isEqualTo(Outcome.ERROR);
        assertThat(FailureClassifier.detail(outer)).isNotBlank();
    }
}
