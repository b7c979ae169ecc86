package io.healthmesh.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on loopback in front of one node's client listener, which the node advertises instead of its own
 * port, so that a test can make the node vanish from its clients as a lost host does: {@link #blackhole()} stops
 * relaying in both directions while keeping every connection open, and accepts new connections without ever
 * answering on them. A client then learns of the loss only from its own timeouts, as across a cut network or from a
 * host that died without resetting its connections. Before that, it relays bytes as they come, and a close on one
 * side closes the other.
 *
 * <p>One thread per direction of each connection: meant for the few dozen connections of a test.
 */
final class NodeRelay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRelay.class);
    private static final int BUFFER_BYTES = 64 * 1024;

    private final InetAddress host;
    private final int port;
    private final int targetPort;
    private final String name;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads;
    private volatile boolean blackholed;
    private volatile boolean closed;
    private ServerSocket server;

    NodeRelay(InetAddress host, int port, int targetPort, String name) {
        this.host = host;
        this.port = port;
        this.targetPort = targetPort;
        this.name = name;
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(task -> {
            Thread t = new Thread(task, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Binds {@code port} and starts accepting. */
    void start() throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port), 128);
        threads.submit(this::accept);
    }

    /** From now on nothing is relayed, nothing is closed and new connections are never answered (idempotent). */
    void blackhole() {
        if (!blackholed) {
            blackholed = true;
            LOG.info("{}: blackholed, {} sockets held open", name, sockets.size());
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("{}: accept failed, the relay stops", name, e);
                }
                return;
            }
            sockets.add(client);
            if (blackholed) {
                threads.submit(() -> pump(client, null, true));
                continue;
            }
            try {
                Socket upstream = new Socket(host, targetPort);
                sockets.add(upstream);
                threads.submit(() -> pump(client, upstream, true));
                threads.submit(() -> pump(upstream, client, false));
            } catch (IOException e) {
                // the node is down: refuse as it would
                closeQuietly(client);
            }
        }
    }

    /**
     * Copies {@code from} to {@code to} until {@code from} ends; while blackholed, reads and drops. When
     * {@code from} ends, both sides close, except that a blackholed relay never closes a client's connection.
     */
    private void pump(Socket from, Socket to, boolean fromClient) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to == null ? null : to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!blackholed && out != null) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // a side went away: handled below like an end of stream
        }
        closeQuietly(from);
        boolean holdClient = blackholed && !fromClient;
        if (to != null && !holdClient) {
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(this::closeQuietly);
        threads.shutdownNow();
    }

    @Override
    public String toString() {
        return name + "[" + port + " -> " + targetPort + (blackholed ? ", blackholed" : "") + "]";
    }
}
