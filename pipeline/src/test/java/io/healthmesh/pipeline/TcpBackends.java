package io.healthmesh.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Loopback TCP backends for the pipeline ITs: listeners on 127.0.0.1 served by one selector thread, which accepts
 * each connection and closes it (a TCP probe only needs the handshake). {@link #stop} closes one listener for real:
 * from then on its port refuses connections, as a stopped backend's does.
 */
final class TcpBackends implements AutoCloseable {

    private final Selector selector;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    TcpBackends(int count) {
        try {
            selector = Selector.open();
            for (int i = 0; i < count; i++) {
                ServerSocketChannel server = ServerSocketChannel.open();
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4_096);
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT);
                listeners.add(server);
                ports.add(((InetSocketAddress) server.getLocalAddress()).getPort());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::serve, "tcp-backends");
        thread.setDaemon(true);
        thread.start();
    }

    int port(int i) {
        return ports.get(i);
    }

    int size() {
        return ports.size();
    }

    /** Closes listener {@code i}; returns the instant it was closed. */
    long stop(int i) {
        try {
            listeners.get(i).close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        selector.wakeup();
        return System.currentTimeMillis();
    }

    private void serve() {
        while (running) {
            try {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    if (key.isValid() && key.isAcceptable()) {
                        SocketChannel accepted;
                        while ((accepted = ((ServerSocketChannel) key.channel()).accept()) != null) {
                            accepted.close();
                        }
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException | RuntimeException e) {
                // a listener closed under us
            }
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(5_000);
            for (ServerSocketChannel listener : listeners) {
                listener.close();
            }
            selector.close();
        } catch (IOException e) {
            // closing anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
