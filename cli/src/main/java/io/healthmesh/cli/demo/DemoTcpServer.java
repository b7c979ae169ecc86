package io.healthmesh.cli.demo;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A loopback TCP backend for the demo. While its {@link Switch} is up it listens and accepts (then closes) every
 * connection; while down it does not listen at all, so connects are refused at once, like a stopped service.
 * Checked every {@value #CHECK_MS} ms by one daemon thread.
 */
public final class DemoTcpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DemoTcpServer.class);
    static final long CHECK_MS = 100;

    private final int port;
    private final Switch state;
    private final Thread thread;
    private volatile boolean closed;
    private ServerSocketChannel channel;

    private DemoTcpServer(ServerSocketChannel channel, Switch state) throws IOException {
        this.channel = channel;
        this.port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        this.state = state;
        this.thread = new Thread(this::loop, "demo-tcp-" + port);
        this.thread.setDaemon(true);
    }

    /** Starts on loopback {@code port} (0 = a free port), listening while {@code state} is up. */
    public static DemoTcpServer start(int port, Switch state) throws IOException {
        DemoTcpServer server = new DemoTcpServer(open(port), state);
        server.thread.start();
        return server;
    }

    public int port() {
        return port;
    }

    private static ServerSocketChannel open(int port) throws IOException {
        ServerSocketChannel ch = ServerSocketChannel.open();
        ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        ch.configureBlocking(false);
        return ch;
    }

    private void loop() {
        while (!closed) {
            try {
                boolean up = state.isUp();
                if (up && channel == null) {
                    channel = open(port);
                } else if (!up && channel != null) {
                    channel.close();
                    channel = null;
                }
                if (channel != null) {
                    SocketChannel client;
                    while ((client = channel.accept()) != null) {
                        client.close();
                    }
                }
                Thread.sleep(Duration.ofMillis(CHECK_MS).toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                // the port may be briefly unavailable when re-listening; the next check retries
                LOG.debug("demo TCP server on port {}: {}", port, e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(2).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.debug("closing demo TCP server: {}", e.toString());
        }
    }
}
