package io.healthmesh.bench.farm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.ReferenceCountUtil;

import java.net.InetSocketAddress;

/**
 * A TCP target: a listening socket that accepts and discards. Down closes the listener, so that a connect
 * is refused at once (a reset), as when a backend process has died; up binds the same address and port again.
 */
final class TcpAcceptServer implements TargetSwitch {

    private final ServerBootstrap bootstrap;
    private final String address;
    private int port;
    private Channel listener;

    TcpAcceptServer(EventLoopGroup group, String address) {
        this.address = address;
        this.bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(Discard.INSTANCE);
    }

    /** Binds the first time on an ephemeral port and returns it. */
    int start() throws InterruptedException {
        set(true);
        return port;
    }

    @Override
    public synchronized void set(boolean up) throws InterruptedException {
        if (up && listener == null) {
            listener = bootstrap.bind(new InetSocketAddress(address, port)).sync().channel();
            port = ((InetSocketAddress) listener.localAddress()).getPort();
        } else if (!up && listener != null) {
            listener.close().sync();
            listener = null;
        }
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
