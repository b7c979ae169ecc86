package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
    void noLocalAddressOrPortIsTheProbersOwnTrouble() throws Exception {
        assumeTrue(Epoll.isAvailable(), "Netty's native library gives the errno's text");
        // what Netty's native socket throws: bind(2) and connect(2) with EADDRINUSE (98) and EADDRNOTAVAIL (99)
        List<Throwable> noLocalPort = new ArrayList<>(List.of(
                new Errors.NativeIoException("bind", -98),
                new Errors.NativeIoException("bind", -99),
                new BindException("Address already in use"),
                new BindException("Cannot assign requested address"),
                new ConnectException("connect(..) failed: Cannot assign requested address: /192.0.2.1:80")));
        try {
            Errors.throwConnectException("connect", -99);
        } catch (ConnectException nettys) {
            noLocalPort.add(new ConnectException(nettys.getMessage() + ": /192.0.2.1:80") {{ initCause(nettys); }});
        }
        for (Throwable failure : noLocalPort) {
            assertThat(FailureClassifier.outcome(failure)).as(failure.toString()).isEqualTo(Outcome.INCONCLUSIVE);
            assertThat(FailureClassifier.inconclusiveCause(failure)).as(failure.toString())
                    .isEqualTo(InconclusiveCause.LOCAL_PORTS);
            assertThat(FailureClassifier.isLocalTrouble(failure)).isTrue();
        }
        assertThat(FailureClassifier.inconclusiveCause(new IOException(new SocketException("Too many open files"))))
                .isEqualTo(InconclusiveCause.INTERNAL_ERROR);
        assertThat(FailureClassifier.outcome(new Errors.NativeIoException("connect", Errors.ERROR_ECONNREFUSED_NEGATIVE)))
                .as("another errno is the target's").isNotEqualTo(Outcome.INCONCLUSIVE);
    }

    @Test
    void followsCausesToFindTls() {
        DecoderException wrapped = new DecoderException(new SSLHandshakeException("PKIX path building failed"));
        assertThat(FailureClassifier.outcome(wrapped)).isEqualTo(Outcome.TLS_FAILURE);
        assertThat(FailureClassifier.detail(wrapped)).isEqualTo("TLS: certificate not trusted (no path to a trusted issuer)");
    }

    @Test
    void tlsFailuresAreNamedByTypeNeverByWhatTheServerSent() {
        assertThat(FailureClassifier.detail(new DecoderException(new NotSslRecordException(
                "not an SSL/TLS record: 5353482d322e302d4f70656e535348"))))
                .isEqualTo("TLS: not a TLS record (the server answered in plain text)");
        assertThat(FailureClassifier.detail(handshake(new CertificateExpiredException("NotAfter: Sat Dec 05 2026"))))
                .isEqualTo("TLS: certificate expired");
        assertThat(FailureClassifier.detail(handshake(new CertificateNotYetValidException("NotBefore: ..."))))
                .isEqualTo("TLS: certificate not yet valid");
        assertThat(FailureClassifier.detail(handshake(new CertificateException(
                "No subject alternative DNS name matching app.internal found."))))
                .isEqualTo("TLS: certificate does not match the host name");
        assertThat(FailureClassifier.detail(handshake(new CertificateException("No name matching app found"))))
                .isEqualTo("TLS: certificate does not match the host name");
        assertThat(FailureClassifier.detail(new SSLHandshakeException("Received fatal alert: handshake_failure")))
                .isEqualTo("TLS: the server sent alert handshake_failure");
        assertThat(FailureClassifier.detail(new SSLHandshakeException("Received fatal alert: <script>")))
                .isEqualTo("TLS: handshake failure");
        assertThat(FailureClassifier.detail(new SSLHandshakeException("The server selected protocol version TLS10")))
                .isEqualTo("TLS: handshake failure");
        assertThat(FailureClassifier.detail(new SSLException("Unsupported or unrecognized SSL message: 48545450")))
                .isEqualTo("TLS: not a TLS record (the server answered in plain text)");
        assertThat(FailureClassifier.detail(new SSLException("some record from server: 41424344")))
                .isEqualTo("TLS: SSLException");
        // what is not TLS keeps its message
        assertThat(FailureClassifier.detail(new ConnectException("Connection refused")))
                .isEqualTo("ConnectException: Connection refused");
    }

    private static Throwable handshake(Exception cause) {
        SSLHandshakeException e = new SSLHandshakeException("PKIX: " + cause.getMessage());
        e.initCause(cause);
        return new DecoderException(e);
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
