package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * The front of a probe's channel pipeline, the same for every protocol over TCP: TLS when the probe asks for it, then
 * the {@link ResponseByteCounter}, so that the byte bounds see what was really read. The TLS handshake is bounded by
 * the probe's deadline alone: Netty's own 10 s default must not outlive it.
 */
public final class ProbePipelineFront {

    private ProbePipelineFront() {
    }

    /**
     * Adds {@code tls} (when not null, named {@code tls}, for {@code host:port}) and the byte counter ({@code bytes})
     * at the end of {@code pipeline}; the protocol's own handlers go after them.
     */
    public static void add(ChannelPipeline pipeline, ProbeContext probe, SslContext tls, String host, int port) {
        if (tls != null) {
            SslHandler ssl = tls.newHandler(pipeline.channel().alloc(), host, port);
            ssl.setHandshakeTimeoutMillis(0);
            pipeline.addLast("tls", ssl);
        }
        pipeline.addLast("bytes", new ResponseByteCounter(probe));
    }
}
