package io.healthmesh.probe.http;

import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.transport.ProbePipelineFront;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslContext;

/**
 * The HTTP probe pipeline: TLS (for HTTPS, with SNI and the configured verification), the byte counter, the
 * HTTP codec bounded by the header limit, and the response handler. The codec never aggregates a body.
 *
 * <p>One per probe, never shared, so it is not a {@code ChannelInitializer}: that one guards against being added to
 * several pipelines with a concurrent set of its own, an allocation on every probe. Netty calls
 * {@link #handlerAdded} once the channel is registered, as it calls a {@code ChannelInitializer}; the handlers go
 * in after this one, which then removes itself.
 */
final class HttpProbeInitializer extends ChannelHandlerAdapter {

    /** Longest status line accepted; part of the header budget in spirit, kept separate by the codec. */
    static final int MAX_STATUS_LINE = 4096;
    /** Largest body piece the codec hands over at once; reads are smaller anyway. */
    static final int MAX_CHUNK = 8192;

    private final ProbeContext probe;
    private final HttpHop hop;
    private final SslContext sslContext;
    private final int maxHeaderBytes;
    private final HttpResponseHandler handler;

    HttpProbeInitializer(ProbeContext probe, HttpHop hop, SslContext sslContext, int maxHeaderBytes,
                         HttpResponseHandler handler) {
        this.probe = probe;
        this.hop = hop;
        this.sslContext = sslContext;
        this.maxHeaderBytes = maxHeaderBytes;
        this.handler = handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ChannelPipeline pipeline = ctx.pipeline();
        try {
            ProbePipelineFront.add(pipeline, probe, hop.tls() ? sslContext : null, hop.peerHost(), hop.port());
            pipeline.addLast("http", new HttpClientCodec(MAX_STATUS_LINE, maxHeaderBytes, MAX_CHUNK));
            pipeline.addLast("probe", handler);
            pipeline.remove(this);
        } catch (RuntimeException e) {
            // our pipeline could not be built (a TLS engine refused the host, say): the prober's trouble, not the
            // target's; the verdict closes the channel
            probe.internalError(e);
        }
    }
}
