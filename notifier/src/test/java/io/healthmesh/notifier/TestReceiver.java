package io.healthmesh.notifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP receiver on loopback (the JDK's server) that records what it accepted. It can be stopped and started
 * again on the same port (connection refused in between), answer 503, or accept a number of requests and then hold
 * every further one unanswered (a receiver that hangs, for a notifier killed mid-delivery).
 */
final class TestReceiver implements AutoCloseable {

    /** One accepted request. */
    record Received(String path, String idempotencyKey, JsonNode body) {
        String type() {
            return body.path("type").asText();
        }

        String alertId() {
            return body.path("alert").path("id").asText();
        }
    }

    private final ObjectMapper json = new ObjectMapper();
    private final List<Received> accepted = new CopyOnWriteArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-receiver");
        t.setDaemon(true);
        return t;
    });
    private volatile int acceptLeft = Integer.MAX_VALUE;
    private volatile long delayMs;
    private volatile CountDownLatch release = new CountDownLatch(1);
    private int port;
    private HttpServer server;

    private TestReceiver(int port) throws IOException {
        this.port = port;
        start();
    }

    static TestReceiver start(int port) throws IOException {
        return new TestReceiver(port);
    }

    synchronized void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        port = server.getAddress().getPort(); // a restart binds the same port
    }

    /** Stops listening: further deliveries see a refused connection. */
    synchronized void stop() {
        server.stop(0);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Accepts the next {@code n} requests, then holds every other one unanswered until {@link #acceptAll()}. */
    void acceptThenHold(int n) {
        acceptLeft = n;
    }

    /** Takes this long to answer each accepted request (a slow receiver). */
    void delay(long millis) {
        delayMs = millis;
    }

    void acceptAll() {
        acceptLeft = Integer.MAX_VALUE;
        release.countDown();
        release = new CountDownLatch(1);
    }

    List<Received> accepted() {
        return List.copyOf(accepted);
    }

    List<Received> accepted(String path) {
        return accepted.stream().filter(r -> r.path().equals(path)).toList();
    }

    int attempts() {
        return attempts.get();
    }

    int held() {
        return held.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            attempts.incrementAndGet();
            if (delayMs > 0) {
                try {
                    Thread.sleep(delayMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (this) {
                if (acceptLeft <= 0) {
                    held.incrementAndGet();
                } else {
                    if (acceptLeft != Integer.MAX_VALUE) {
                        acceptLeft--;
                    }
                    accepted.add(new Received(exchange.getRequestURI().getPath(),
                            exchange.getRequestHeaders().getFirst("Idempotency-Key"), json.readTree(body)));
                    exchange.sendResponseHeaders(200, -1);
                    return;
                }
            }
            CountDownLatch wait = release;
            try {
                wait.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(503, -1);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
