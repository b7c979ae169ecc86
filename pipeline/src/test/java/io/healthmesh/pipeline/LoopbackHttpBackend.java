package io.healthmesh.pipeline;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend on a loopback address (JDK {@link HttpServer}) that answers 200, until {@link #hang()}: from then on it
 * still accepts connections and reads requests but never answers them, so probes end in TIMEOUT, as with a wedged
 * server rather than a dead one (which would be CONNECTION_REFUSED at once). {@link #resume()} answers again,
 * including the requests held at that moment.
 */
final class LoopbackHttpBackend implements AutoCloseable {

    /** How long a held request waits at most; far longer than any probe timeout of the tests. */
    private static final long HOLD_LIMIT_MS = 60_000;

    private final HttpServer server;
    private final ExecutorService handlers;
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicLong lastAnsweredAtMs = new AtomicLong();
    /** Non-null while hanging: requests wait on it. */
    private volatile CountDownLatch hanging;
    /** How long each answer takes (a slow backend), ms. */
    private volatile long answerDelayMs;

    private LoopbackHttpBackend(HttpServer server, ExecutorService handlers) {
        this.server = server;
        this.handlers = handlers;
    }

    /**
     * Starts a backend on {@code loopbackAddress} (e.g. {@code 127.0.0.1}, {@code 127.0.0.2}) and a free port.
     *
     * @throws IllegalArgumentException when the address is not a loopback address: tests only target loopback
     */
    static LoopbackHttpBackend start(String loopbackAddress) {
        try {
            InetAddress address = InetAddress.getByName(loopbackAddress);
            if (!address.isLoopbackAddress()) {
                throw new IllegalArgumentException("loopbackAddress: " + loopbackAddress + " (expected: 127.0.0.0/8 or ::1)");
            }
            HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 64);
            // held requests park a thread each: an unbounded pool, so a hang never starves the answers after it
            ExecutorService handlers = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "backend-" + loopbackAddress);
                t.setDaemon(true);
                return t;
            });
            server.setExecutor(handlers);
            LoopbackHttpBackend backend = new LoopbackHttpBackend(server, handlers);
            server.createContext("/", backend::handle);
            server.start();
            return backend;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind " + loopbackAddress, e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            CountDownLatch gate = hanging;
            if (gate != null) {
                held.incrementAndGet();
                try {
                    if (!gate.await(HOLD_LIMIT_MS, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            long delay = answerDelayMs;
            if (delay > 0) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            // HEAD (the probes' default) and GET alike: a status line and no body
            exchange.sendResponseHeaders(200, -1);
            lastAnsweredAtMs.set(System.currentTimeMillis());
        } catch (IOException e) {
            // the prober gave up on a held request and closed the connection: nothing to answer to
        }
    }

    /** Every answer from now on takes {@code millis} (a slow backend: the documents' "1 s response time"). */
    void answerAfter(long millis) {
        answerDelayMs = millis;
    }

    /** Stops answering (connections are still accepted); returns the wall-clock instant it took effect. */
    long hang() {
        hanging = new CountDownLatch(1);
        return System.currentTimeMillis();
    }

    /** Answers again, the held requests included; returns the wall-clock instant it took effect. */
    long resume() {
        CountDownLatch gate = hanging;
        hanging = null;
        if (gate != null) {
            gate.countDown();
        }
        return System.currentTimeMillis();
    }

    String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** When the last answer was sent, epoch ms (0 before the first): a request read just before {@link #hang()} may be
     *  answered just after it, so the backend stopped answering at the later of the two. */
    long lastAnsweredAtMs() {
        return lastAnsweredAtMs.get();
    }

    /** Requests that arrived while hanging. */
    int held() {
        return held.get();
    }

    @Override
    public void close() {
        resume();
        server.stop(0);
        handlers.shutdownNow();
    }
}
