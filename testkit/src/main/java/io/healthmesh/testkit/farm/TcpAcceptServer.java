package io.healthmesh.testkit.farm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

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
            awaitRefused(address, port);
        }
    }

    /**
     * NIO releases a closed listening socket only when the selector next deregisters it, so a connect may still
     * succeed for a moment after {@code close()} returned: wait until one is really refused, so that the instant
     * recorded for the switch is when the target went down, not before.
     */
    static void awaitRefused(String address, int port) {
        InetSocketAddress endpoint = new InetSocketAddress(address, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (int attempt = 0; attempt < 10_000 && System.nanoTime() < deadline; attempt++) {
            try (Socket socket = new Socket()) {
                socket.setSoLinger(true, 0);
                socket.connect(endpoint, 200);
            } catch (ConnectException refused) {
                return;
            } catch (IOException other) {
                // a timeout or a reset while the listener goes away: try again
            }
            Thread.yield();
        }
        throw new IllegalStateException("TCP target " + endpoint + " still accepts 2 s after its listener closed");
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
