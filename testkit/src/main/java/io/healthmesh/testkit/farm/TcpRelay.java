package io.healthmesh.testkit.farm;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.net.InetSocketAddress;

/**
 * A TCP relay on a loopback port in front of another local port. Down closes its listener only: a new connection is
 * refused (what a prober sees of a backend that went away), while the connections it already relays keep flowing,
 * as they do for a client when a host vanishes without resetting them. A client therefore keeps using such a backend
 * until something else (a health checker) takes it out of its list. Up binds the same port again.
 */
public final class TcpRelay implements TargetSwitch {

    private final EventLoopGroup group;
    private final String address;
    private final InetSocketAddress target;
    private final ChannelGroup relayed = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final ServerBootstrap bootstrap;
    private int port;
    private Channel listener;

    /**
     * A relay on {@code address} (an ephemeral port, bound by {@link #start()}) to {@code target}, on the caller's
     * event loops (the caller shuts them down after closing the relay).
     */
    public TcpRelay(EventLoopGroup group, String address, InetSocketAddress target) {
        this.group = group;
        this.address = address;
        this.target = target;
        this.bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel inbound) {
                        relayed.add(inbound);
                        inbound.pipeline().addLast(new Inbound());
                    }
                });
    }

    /** Binds the first time on an ephemeral port and returns it. */
    public int start() throws InterruptedException {
        set(true);
        return port;
    }

    public synchronized int port() {
        return port;
    }

    /** Up: listening (on the port of the first bind). Down: the listener closed, relayed connections left open. */
    @Override
    public synchronized void set(boolean up) throws InterruptedException {
        if (up && listener == null) {
            listener = bootstrap.bind(new InetSocketAddress(address, port)).sync().channel();
            port = ((InetSocketAddress) listener.localAddress()).getPort();
        } else if (!up && listener != null) {
            listener.close().sync();
            listener = null;
            TcpAcceptServer.awaitRefused(address, port);
        }
    }

    /** Closes the listener and every relayed connection. */
    @Override
    public synchronized void close() throws InterruptedException {
        if (listener != null) {
            listener.close().sync();
            listener = null;
        }
        relayed.close().sync();
    }

    /** Connects the accepted connection to the target and starts relaying once that is open. */
    private final class Inbound extends ChannelInboundHandlerAdapter {
        private Channel outbound;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel inbound = ctx.channel();
            Bootstrap connect = new Bootstrap().group(inbound.eventLoop()).channel(NioSocketChannel.class)
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new Outbound(inbound));
            connect.connect(target).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess() && !inbound.isActive()) {
                    f.channel().close();
                } else if (f.isSuccess()) {
                    outbound = f.channel();
                    relayed.add(outbound);
                    inbound.read();
                    outbound.read();
                } else {
                    inbound.close();
                }
            });
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            outbound.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(outbound);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    /** Relays the target's bytes back to the accepted connection. */
    private static final class Outbound extends ChannelInboundHandlerAdapter {
        private final Channel inbound;

        Outbound(Channel inbound) {
            this.inbound = inbound;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            inbound.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(inbound);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    private static void closeOnFlush(Channel channel) {
        if (channel != null && channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
