package io.healthmesh.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The operations endpoint every worker exposes: {@code /metrics} (Prometheus text format),
 * {@code /healthz} (the process is alive) and {@code /readyz} (the worker is doing its job).
 * Further routes (the aggregator's query API) can be added with {@link #route}. Runs on the JDK's
 * HTTP server with one small thread pool, away from any event loop or stream thread.
 */
public final class OpsServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;

    private OpsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts the server.
     *
     * @param bind address to bind ({@code port} 0 picks a free port)
     * @param registry the metrics to expose
     * @param ready answers {@code /readyz}: 200 when true, 503 when false
     */
    public static OpsServer start(InetSocketAddress bind, PrometheusRegistry registry, BooleanSupplier ready)
            throws IOException {
        requireNonNull(registry, "registry");
        requireNonNull(ready, "ready");
        HttpServer server = HttpServer.create(bind, 64);
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "healthmesh-ops-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics",
                exchange -> respond(exchange, 200, MetricsText.CONTENT_TYPE, MetricsText.scrape(registry)));
        server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain", bytes("ok\n")));
        server.createContext("/readyz", exchange -> {
            boolean isReady = ready.getAsBoolean();
            respond(exchange, isReady ? 200 : 503, "text/plain", bytes(isReady ? "ready\n" : "not ready\n"));
        });
        server.start();
        return new OpsServer(server, executor);
    }

    /** Adds a route; the handler owns the exchange and must answer it. */
    public OpsServer route(String pathPrefix, HttpHandler handler) {
        server.createContext(pathPrefix, handler);
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Writes a complete response and closes the exchange. */
    public static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : (body.length == 0 ? -1 : body.length));
            if (!head && body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
