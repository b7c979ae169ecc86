package io.healthmesh.probe.tcp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.transport.ByteWindow;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;

/**
 * The optional TCP payload exchange: writes {@code send} once connected, then reads until the response
 * contains {@code expect}, the byte limit is reached or the peer closes. With only {@code send}, a completed
 * write is a success; with only {@code expect}, the peer speaks first (a banner).
 */
final class TcpExchangeHandler extends ChannelInboundHandlerAdapter {

    private final ProbeContext probe;
    private final TcpSpec spec;
    private final ByteWindow window;

    TcpExchangeHandler(ProbeContext probe, TcpSpec spec, int maxResponseBytes) {
        this.probe = probe;
        this.spec = spec;
        this.window = spec.expect() == null ? null
                : new ByteWindow(maxResponseBytes, spec.expect().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (spec.send() != null && !probe.isDone()) {
            ByteBuf payload = Unpooled.copiedBuffer(spec.send(), StandardCharsets.UTF_8);
            ctx.writeAndFlush(payload).addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    probe.fail(f.cause());
                } else if (window == null) {
                    probe.succeed("connected, payload sent");
                }
            });
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof ByteBuf received) {
                probe.factBytes("response", received);
            }
            if (window == null || probe.isDone() || !(msg instanceof ByteBuf data)) {
                return;
            }
            if (window.append(data)) {
                probe.succeed("response contains expected text");
            } else if (window.isFull()) {
                probe.finish(Outcome.UNEXPECTED_RESPONSE,
                        "expected text not in the first " + window.size() + " response bytes");
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!probe.isDone() && window != null) {
            probe.finish(Outcome.UNEXPECTED_RESPONSE, window.size() == 0 ? "connection closed without a response"
                    : "connection closed; expected text not in the " + window.size() + " response bytes");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        probe.fail(cause);
    }
}
