package io.healthmesh.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A webhook receiver for the notifier's {@code webhook} route: an HTTP server in the test JVM, bound to the test
 * network's gateway address on a free port, that answers 200 to every POST and keeps the JSON bodies (bounded).
 */
final class WebhookReceiver implements AutoCloseable {

    /** One delivery: the notification's idempotency key, type, target or group id, status and start. */
    record Delivery(String id, String type, String kind, String alertId, String status, String startsAt) {
    }

    private static final int MAX_DELIVERIES = 10_000;
    private static final int MAX_BODY = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "webhook-receiver");
        t.setDaemon(true);
        return t;
    });
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    /** Listens on {@code address} (the gateway of the containers' network), on a free port. */
    static WebhookReceiver start(String address) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 16);
        WebhookReceiver receiver = new WebhookReceiver(server);
        server.createContext("/", receiver::handle);
        server.setExecutor(receiver.executor);
        server.start();
        return receiver;
    }

    /** The URL a route posts to. */
    String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/healthmesh";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY + 1);
            if (!"POST".equals(exchange.getRequestMethod()) || body.length > MAX_BODY
                    || deliveries.size() >= MAX_DELIVERIES) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            JsonNode n = JSON.readTree(body);
            JsonNode alert = n.path("alert");
            deliveries.add(new Delivery(n.path("id").asText(), n.path("type").asText(), alert.path("kind").asText(),
                    alert.path("id").asText(), alert.path("status").asText(), n.path("startsAt").asText()));
            exchange.sendResponseHeaders(200, -1);
        }
    }

    /** Every delivery so far, repeats included, in arrival order. */
    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
