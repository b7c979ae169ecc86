package io.healthmesh.status.web;

import io.healthmesh.status.board.BoardRows;
import io.healthmesh.status.board.StatusBoard;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.ops.OpsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The page's routes over real HTTP on an {@link OpsServer}, without Kafka. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a read that hangs fails
class StatusPageTest {

    private final StatusBoard board = new StatusBoard(5);
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private StatusStream stream;
    private OpsServer server;

    @BeforeEach
    void start() throws IOException {
        stream = new StatusStream(board, Duration.ofMillis(50), 1, json).start();
        server = OpsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new PrometheusRegistry(),
                () -> true);
        new StatusPage(board, stream, json).mount(server);
    }

    @AfterEach
    void stop() {
        stream.close();
        server.close();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10));
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePageItsFilesAndStrictHeaders() throws Exception {
        HttpResponse<String> page = get("/status/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.body()).contains("<script src=\"status.js\"", "id=\"rows\"");
        assertThat(get("/status/status.js").body()).contains("new EventSource('events' + window.location.search)");
        assertThat(get("/status/status.css").headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
        HttpResponse<String> redirect = get("/status");
        assertThat(redirect.statusCode()).isEqualTo(308);
        assertThat(redirect.headers().firstValue("Location")).hasValue("/status/");
    }

    @Test
    void refusesWritesAndUnknownPaths() throws Exception {
        HttpResponse<String> post = http.send(request("/status/").POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.body()).isEqualTo("method: POST (expected: GET)\n");
        assertThat(get("/status/../metrics").statusCode()).isIn(400, 404);
        assertThat(get("/status/index.html.bak").statusCode()).isEqualTo(404);
    }

    @Test
    void snapshotIsTheBoardAsJson() throws Exception {
        board.putTarget(BoardRows.row("a", "g", "UNHEALTHY", false));
        HttpResponse<String> snapshot = get("/status/snapshot");
        assertThat(snapshot.statusCode()).isEqualTo(200);
        assertThat(json.readTree(snapshot.body()).path("targets").get(0).path("row").path("status").asText())
                .isEqualTo("UNHEALTHY");
    }

    @Test
    void eventsStreamGzippedServerSentEventsAndRefuseOneTooMany() throws Exception {
        board.putTarget(BoardRows.row("a", "g", "HEALTHY", false));
        HttpResponse<InputStream> events = http.send(request("/status/events").header("Accept-Encoding", "gzip")
                .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(events.statusCode()).isEqualTo(200);
        assertThat(events.headers().firstValue("Content-Type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(events.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (InputStream in = new GZIPInputStream(events.body())) {
            StringBuilder received = new StringBuilder();
            readUntil(in, received, "event: snapshot\ndata: {");
            readUntil(in, received, "\n\n");
            assertThat(received.toString()).startsWith("retry: 2000\n\nevent: snapshot\ndata: {")
                    .contains("\"id\":\"a\"", "\"status\":\"HEALTHY\"");

            assertThat(get("/status/events").statusCode()).as("status.max.clients = 1").isEqualTo(503);

            received.setLength(0);
            board.putTarget(BoardRows.row("a", "g", "UNHEALTHY", false));
            readUntil(in, received, "event: delta\ndata: {");
            readUntil(in, received, "\n\n");
            assertThat(received.substring(received.indexOf("event: delta"))).contains("\"status\":\"UNHEALTHY\"");
        }
    }

    /**
     * Reads what arrives until {@code received} contains {@code expected}, one read at a time on purpose: a Reader would
     * wait for more than one event (a gzip stream always claims that more is available).
     */
    private static void readUntil(InputStream in, StringBuilder received, String expected) throws IOException {
        byte[] buffer = new byte[8192];
        int from = received.length();
        while (received.indexOf(expected, Math.max(0, from - expected.length())) < 0) {
            int n = in.read(buffer);
            assertThat(n).as("the stream ended before %s", expected).isPositive();
            received.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
    }
}
