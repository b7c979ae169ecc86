package io.healthmesh.haproxy;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Small HTTP servers on loopback, each answering its own name, each remembering how many requests it got and when
 * the last one arrived ({@link System#nanoTime()}).
 */
final class LoopbackBackends implements AutoCloseable {

    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final List<HttpServer> servers = new ArrayList<>();
    private final Map<String, Integer> ports = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> hits = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> lastHitNanos = new ConcurrentHashMap<>();

    /** Starts one more backend named {@code name}; returns its port. */
    int start(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        hits.put(name, new AtomicLong());
        lastHitNanos.put(name, new AtomicLong());
        byte[] body = name.getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            hits.get(name).incrementAndGet();
            lastHitNanos.get(name).set(System.nanoTime());
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(executor);
        server.start();
        servers.add(server);
        ports.put(name, server.getAddress().getPort());
        return server.getAddress().getPort();
    }

    int port(String name) {
        return ports.get(name);
    }

    long hits(String name) {
        return hits.get(name).get();
    }

    long lastHitNanos(String name) {
        return lastHitNanos.get(name).get();
    }

    @Override
    public void close() {
        servers.forEach(s -> s.stop(0));
        executor.shutdownNow();
    }
}
