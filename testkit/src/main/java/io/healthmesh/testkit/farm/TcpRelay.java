package io.healthmesh.testkit.farm;

import io.netty.bootstrap.Bootstrap;
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

    private final InetSocketAddress target;
    private final ChannelGroup relayed = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final SwitchableListener listener;

    /**
     * A relay on {@code address} (an ephemeral port, bound by {@link #start()}) to {@code target}, on the caller's
     * event loops (the caller shuts them down after closing the relay).
     */
    public TcpRelay(EventLoopGroup group, String address, InetSocketAddress target) {
        this.target = target;
        this.listener = new SwitchableListener(group, address, bootstrap -> bootstrap
                .childOption(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel inbound) {
                        relayed.add(inbound);
                        inbound.pipeline().addLast(new Inbound());
                    }
                }));
    }

    /** Binds the first time on an ephemeral port and returns it. */
    public int start() throws InterruptedException {
        return listener.start();
    }

    public int port() {
        return listener.port();
    }

    /** Up: listening (on the port of the first bind). Down: the listener closed, relayed connections left open. */
    @Override
    public void set(boolean up) throws InterruptedException {
        listener.set(up);
    }

    /** Closes the listener and every relayed connection. */
    @Override
    public void close() throws InterruptedException {
        listener.closeNow();
        relayed.close().sync();
    }

    /**
     * Writes what one side reads to the other, reading on only once the write went out (so a slow side slows the
     * other instead of filling memory); closes the other side when its own closes.
     */
    private abstract static class Forwarding extends ChannelInboundHandlerAdapter {

        /** The other side, or null while it is not connected yet. */
        abstract Channel peer();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer().writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(peer());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    /** Connects the accepted connection to the target and starts relaying once that is open. */
    private final class Inbound extends Forwarding {
        private Channel outbound;

        @Override
        Channel peer() {
            return outbound;
        }

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
    }

    /** Relays the target's bytes back to the accepted connection. */
    private static final class Outbound extends Forwarding {
        private final Channel inbound;

        Outbound(Channel inbound) {
            this.inbound = inbound;
        }

        @Override
        Channel peer() {
            return inbound;
        }
    }

    private static void closeOnFlush(Channel channel) {
        if (channel != null && channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
