package io.healthmesh.probe.grpc;

import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.transport.ProbePipelineFront;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;

/**
 * The GRPC probe pipeline: TLS (with SNI and the definition's verification, offering {@code h2}), the byte counter and
 * the call handler, which adds the HTTP/2 codec in front of itself once the connection may speak HTTP/2. One per
 * probe, removed once it has built the pipeline (as the HTTP probe's initializer is).
 */
final class GrpcProbeInitializer extends ChannelHandlerAdapter {

    private final ProbeContext probe;
    private final String host;
    private final int port;
    private final SslContext sslContext;
    private final GrpcCallHandler handler;

    /** {@code sslContext}: {@code null} for plaintext HTTP/2. */
    GrpcProbeInitializer(ProbeContext probe, String host, int port, SslContext sslContext, GrpcCallHandler handler) {
        this.probe = probe;
        this.host = host;
        this.port = port;
        this.sslContext = sslContext;
        this.handler = handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ChannelPipeline pipeline = ctx.pipeline();
        try {
            ProbePipelineFront.add(pipeline, probe, sslContext, host, port);
            pipeline.addLast("grpc", handler);
            pipeline.remove(this);
        } catch (RuntimeException e) {
            probe.internalError(e);
        }
    }
}
