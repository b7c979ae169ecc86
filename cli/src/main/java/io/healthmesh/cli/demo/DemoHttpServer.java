package io.healthmesh.cli.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback HTTP backend for the demo: each path answers 200 {@code ok} while its {@link Switch} is up and
 * 503 while it is down (HEAD and GET alike), and unknown paths 404.
 */
public final class DemoHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Switch> paths = new ConcurrentHashMap<>();

    private DemoHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts on loopback {@code port} (0 = a free port). */
    public static DemoHttpServer start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "demo-http");
            t.setDaemon(true);
            return t;
        });
        DemoHttpServer demo = new DemoHttpServer(server, executor);
        server.createContext("/", demo::handle);
        server.setExecutor(executor);
        server.start();
        return demo;
    }

    /** Serves {@code path} according to {@code state}. */
    public DemoHttpServer route(String path, Switch state) {
        paths.put(path, state);
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Switch state = paths.get(exchange.getRequestURI().getPath());
            int status = state == null ? 404 : state.isUp() ? 200 : 503;
            byte[] body = (status == 200 ? "ok\n" : status == 503 ? "down for the demo\n" : "no such path\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
                exchange.sendResponseHeaders(status, -1);
            } else {
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
