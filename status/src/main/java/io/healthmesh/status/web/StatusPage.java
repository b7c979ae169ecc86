package io.healthmesh.status.web;

import io.healthmesh.status.board.StatusBoard;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.healthmesh.ops.OpsServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static java.util.Objects.requireNonNull;

/**
 * The status page's routes on an HTTP server (the status role's, or an aggregator's next to its query API):
 * {@code /status/} (the page), its script and style sheet (plain files from the jar), {@code /status/events}
 * (server-sent events from {@link StatusStream}) and {@code /status/snapshot} (the whole board as JSON). Read-only: anything but GET and
 * HEAD is refused. The page loads nothing from elsewhere, and the answers say so (a strict Content-Security-Policy).
 */
public final class StatusPage {

    static final String PREFIX = "/status";
    private static final String BASE = "/io/healthmesh/status/web/";
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/status.js", "status.js",
            "/status.css", "status.css");
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final StatusBoard board;
    private final StatusStream stream;
    private final ObjectMapper mapper;
    private final Map<String, byte[]> files;

    public StatusPage(StatusBoard board, StatusStream stream, ObjectMapper mapper) {
        this.board = requireNonNull(board, "board");
        this.stream = requireNonNull(stream, "stream");
        this.mapper = requireNonNull(mapper, "mapper");
        this.files = Map.of(
                "/", resource("index.html"),
                "/status.js", resource("status.js"),
                "/status.css", resource("status.css"));
    }

    /** Adds the routes to {@code server}. */
    public void mount(OpsServer server) {
        server.route(PREFIX, this::handle);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        secure(exchange);
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            text(exchange, 405, "method: " + method + " (expected: GET)\n");
        } else if (path.isEmpty()) {
            exchange.getResponseHeaders().set("Location", PREFIX + "/");
            OpsServer.respond(exchange, 308, "text/plain", new byte[0]);
        } else if (path.equals("/events")) {
            events(exchange);
        } else if (path.equals("/snapshot")) {
            OpsServer.respond(exchange, 200, "application/json", mapper.writeValueAsBytes(board.snapshot()));
        } else if (files.containsKey(path)) {
            OpsServer.respond(exchange, 200, contentType(FILES.get(path)), files.get(path));
        } else {
            text(exchange, 404, "not found: " + exchange.getRequestURI().getPath() + "\n");
        }
    }

    private void events(HttpExchange exchange) throws IOException {
        if ("HEAD".equals(exchange.getRequestMethod())) {
            OpsServer.respond(exchange, 200, "text/event-stream", new byte[0]);
            return;
        }
        List<String> accepted = exchange.getRequestHeaders().getOrDefault("Accept-Encoding", List.of());
        boolean gzip = accepted.stream().anyMatch(v -> v.toLowerCase().contains("gzip"));
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (gzip) {
            exchange.getResponseHeaders().set("Content-Encoding", "gzip");
        }
        Sink sink = new Sink(exchange, gzip);
        if (!stream.connect(sink)) {
            exchange.getResponseHeaders().remove("Content-Encoding");
            text(exchange, 503, "too many status page connections; retry later\n");
            return;
        }
        // the exchange stays open: the stream's writer thread owns it from here on
    }

    /** One browser's event stream on an exchange (gzip with a sync flush per event when the browser accepts it). */
    private static final class Sink implements StatusStream.Sink {
        private final HttpExchange exchange;
        private final boolean gzip;
        private OutputStream out;

        Sink(HttpExchange exchange, boolean gzip) {
            this.exchange = exchange;
            this.gzip = gzip;
        }

        @Override
        public void write(byte[] event) throws IOException {
            if (out == null) {
                exchange.sendResponseHeaders(200, 0);
                out = gzip ? new GZIPOutputStream(exchange.getResponseBody(), 8192, true) : exchange.getResponseBody();
                out.write("retry: 2000\n\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write(event);
            out.flush();
        }

        @Override
        public void close() {
            try {
                if (out != null) {
                    out.close();
                } else {
                    exchange.sendResponseHeaders(204, -1);
                }
            } catch (IOException | RuntimeException e) {
                // the browser is gone already
            } finally {
                exchange.close();
            }
        }
    }

    private static void secure(HttpExchange exchange) {
        exchange.getResponseHeaders().set("Content-Security-Policy", CSP);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    }

    private static void text(HttpExchange exchange, int status, String body) throws IOException {
        OpsServer.respond(exchange, status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    private static String contentType(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        return file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
    }

    private static byte[] resource(String name) {
        try (InputStream in = StatusPage.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("status page file missing from the jar: " + BASE + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
