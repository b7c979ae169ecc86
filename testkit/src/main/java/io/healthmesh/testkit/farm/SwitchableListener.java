package io.healthmesh.testkit.farm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A TCP listener that goes down and comes back on the same port, as the farm's TCP targets do: the first bind takes
 * an ephemeral port, down closes the listener only (accepted connections are the owner's), up binds that port again.
 */
final class SwitchableListener implements TargetSwitch {

    private final ServerBootstrap bootstrap;
    private final String address;
    private int port;
    private Channel channel;

    /**
     * A listener on {@code address}, on {@code group}'s event loops; {@code accepting} adds what the owner's
     * connections need (child handler, options) to a bootstrap that already reuses the address.
     */
    SwitchableListener(EventLoopGroup group, String address, UnaryOperator<ServerBootstrap> accepting) {
        this.bootstrap = accepting.apply(new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true));
        this.address = address;
    }

    /** Binds the first time, on an ephemeral port, and returns it. */
    int start() throws InterruptedException {
        set(true);
        return port();
    }

    synchronized int port() {
        return port;
    }

    /** Up: listening. Down: the listener closed, returning once a connect to it is refused. */
    @Override
    public synchronized void set(boolean up) throws InterruptedException {
        if (up && channel == null) {
            channel = bootstrap.bind(new InetSocketAddress(address, port)).sync().channel();
            port = ((InetSocketAddress) channel.localAddress()).getPort();
        } else if (!up && channel != null) {
            closeNow();
            awaitRefused(address, port);
        }
    }

    /** Down for good. */
    @Override
    public void close() throws InterruptedException {
        set(false);
    }

    /** Closes the listener without waiting for connects to be refused. */
    synchronized void closeNow() throws InterruptedException {
        if (channel != null) {
            channel.close().sync();
            channel = null;
        }
    }

    /**
     * NIO releases a closed listening socket only when the selector next deregisters it, so a connect may still
     * succeed for a moment after {@code close()} returned: wait until one is really refused, so that the instant
     * recorded for the switch is when the target went down, not before.
     */
    private static void awaitRefused(String address, int port) {
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
}
