package io.healthmesh.prober;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * TCP listeners on several loopback addresses (127.0.0.1, 127.0.0.2, ...), served by one selector thread
 * like a real server: connections are accepted and kept open until the client closes or resets them.
 * The targets of the ITs.
 */
final class LoopbackTcpListeners implements AutoCloseable {

    private final Selector selector;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    LoopbackTcpListeners(int count) {
        try {
            selector = Selector.open();
            for (int i = 0; i < count; i++) {
                ServerSocketChannel server = ServerSocketChannel.open();
                server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0." + (i + 1)), 0), 1_000);
                server.configureBlocking(false);
                server.register(selector, SelectionKey.OP_ACCEPT);
                listeners.add(server);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::serve, "loopback-listeners");
        thread.setDaemon(true);
        thread.start();
    }

    /** Address and port of listener {@code i}. */
    InetSocketAddress address(int i) {
        try {
            return (InetSocketAddress) listeners.get(i).getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int size() {
        return listeners.size();
    }

    private void serve() {
        ByteBuffer sink = ByteBuffer.allocate(1024);
        while (running) {
            try {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    if (key.isValid() && key.isAcceptable()) {
                        SocketChannel accepted = ((ServerSocketChannel) key.channel()).accept();
                        if (accepted != null) {
                            accepted.configureBlocking(false);
                            accepted.register(selector, SelectionKey.OP_READ);
                        }
                    } else if (key.isValid() && key.isReadable()) {
                        readOrClose(key, sink);
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException e) {
                // a listener closed under us while stopping
            }
        }
    }

    private static void readOrClose(SelectionKey key, ByteBuffer sink) {
        SocketChannel channel = (SocketChannel) key.channel();
        try {
            sink.clear();
            if (channel.read(sink) < 0) {
                channel.close();
            }
        } catch (IOException e) {
            // reset by the prober (SO_LINGER 0): the expected end of a probe's connection
            try {
                channel.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
            selector.close();
        } catch (IOException e) {
            // closing test listeners
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
