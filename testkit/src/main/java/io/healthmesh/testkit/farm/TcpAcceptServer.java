package io.healthmesh.testkit.farm;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;

/**
 * A TCP target: a listening socket that accepts and discards. Down closes the listener, so that a connect
 * is refused at once (a reset), as when a backend process has died; up binds the same address and port again.
 */
final class TcpAcceptServer implements TargetSwitch {

    private final SwitchableListener listener;

    TcpAcceptServer(EventLoopGroup group, String address) {
        this.listener = new SwitchableListener(group, address,
                bootstrap -> bootstrap.option(ChannelOption.SO_BACKLOG, 4096).childHandler(Discard.INSTANCE));
    }

    /** Binds the first time on an ephemeral port and returns it. */
    int start() throws InterruptedException {
        set(true);
        return listener.port();
    }

    @Override
    public void set(boolean up) throws InterruptedException {
        listener.set(up);
    }

    @Override
    public void close() throws InterruptedException {
        set(false);
    }

    /** Accepted connections: read and drop whatever arrives; the prober resets the connection itself. */
    @ChannelHandler.Sharable
    static final class Discard extends ChannelInboundHandlerAdapter {
        static final Discard INSTANCE = new Discard();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
