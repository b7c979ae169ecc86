package io.healthmesh.probe.http;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ExpectedStatuses;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeFixtures;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.Targets;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.ApplicationProtocolNegotiator;
import io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP probe's pipeline, built when the channel is registered, as a {@code ChannelInitializer} would. */
class HttpProbeInitializerTest {

    @Test
    void buildsThePipelineOnceRegisteredAndStepsAside() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        TargetSpec target = Targets.http(8080, 2000);
        ProbeContext probe = ProbeFixtures.on(new EmbeddedChannel().eventLoop(), target);
        channel.pipeline().addLast(initializer(probe, false, null));
        assertThat(channel.pipeline().names()).doesNotContain("http"); // not registered yet
        channel.register();
        assertThat(channel.pipeline().names()).containsSubsequence("bytes", "http", "probe");
        assertThat(channel.pipeline().get(HttpProbeInitializer.class)).isNull();
        assertThat(probe.isDone()).isFalse();
    }

    @Test
    void aPipelineThatCannotBeBuiltIsTheProbersTroubleNotTheTargets() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        TargetSpec target = Targets.http(8443, 2000);
        ProbeContext probe = ProbeFixtures.on(new EmbeddedChannel().eventLoop(), target);
        channel.pipeline().addLast(initializer(probe, true, new RefusingSslContext()));
        channel.register();
        ProbeReport report = ProbeFixtures.report(probe).get(5, TimeUnit.SECONDS);
        assertThat(report.outcome()).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(report.detail()).startsWith("internal-error").contains("no TLS engine here");
    }

    private static HttpProbeInitializer initializer(ProbeContext probe, boolean tls, SslContext ssl) {
        HttpHop hop = new HttpHop(tls, "127.0.0.1", InetAddress.getLoopbackAddress(), probe.target().port(), "/");
        HttpResponseHandler handler = new HttpResponseHandler(probe, hop,
                ExpectedStatuses.parse(probe.target().http().expectedStatuses()),
                HttpRequests.build(hop, probe.target().http(), "healthmesh-healthcheck"), 5120, 0, null);
        return new HttpProbeInitializer(probe, hop, ssl, 16 * 1024, handler);
    }

    /** A TLS context whose engines cannot be made. */
    private static final class RefusingSslContext extends SslContext {
        @Override
        public boolean isClient() {
            return true;
        }

        @Override
        public List<String> cipherSuites() {
            return List.of();
        }

        @Override
        @SuppressWarnings("deprecation")
        public ApplicationProtocolNegotiator applicationProtocolNegotiator() {
            return null;
        }

        @Override
        public SSLEngine newEngine(ByteBufAllocator alloc) {
            throw new IllegalStateException("no TLS engine here");
        }

        @Override
        public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
            throw new IllegalStateException("no TLS engine here");
        }

        @Override
        public SSLSessionContext sessionContext() {
            return null;
        }
    }
}
