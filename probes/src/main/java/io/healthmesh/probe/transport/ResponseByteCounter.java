package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Counts response bytes as they arrive (after TLS, before any decoder) and stamps the first byte's time.
 * Sits in front of the decoders so that the probe's byte bounds are checked against what was really read.
 */
public final class ResponseByteCounter extends ChannelInboundHandlerAdapter {

    private final ProbeContext probe;

    public ResponseByteCounter(ProbeContext probe) {
        this.probe = probe;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            probe.bytesRead(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
