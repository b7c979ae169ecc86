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
final class TcpAcceptServer {

    private TcpAcceptServer() {
    }

    /** A listener on {@code address} that accepts and discards; {@link SwitchableListener#start()} binds it. */
    static SwitchableListener on(EventLoopGroup group, String address) {
        return new SwitchableListener(group, address,
                bootstrap -> bootstrap.option(ChannelOption.SO_BACKLOG, 4096).childHandler(Discard.INSTANCE));
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
