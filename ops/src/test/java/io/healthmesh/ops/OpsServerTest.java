package io.healthmesh.ops;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The worker HTTP server over raw sockets: tokens, routes, the bounded pool, the deadlines and the connection cap. */
class OpsServerTest {

    private static final String OPS_TOKEN = "ops-token-0123456789";
    private static final String API_TOKEN = "api-token-0123456789";
    /** What a slow loris sends at most, a byte every 100 ms: far more than the request deadline lets it. */
    private static final int LORIS_MAX_BYTES = 300;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private OpsServer start(OpsServer.Builder builder) throws IOException {
        OpsServer server = builder.start();
        open.add(server);
        return server;
    }

    private static OpsServer.Builder builder() {
        return OpsServer.builder(new InetSocketAddress("127.0.0.1", 0));
    }

    /** One request on a fresh connection; the status line, headers and body as text. */
    static String get(int port, String path, String authorization) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** GET /healthz on an open keep-alive connection; the status. */
    private static int keepAliveHealthz(Socket socket) throws IOException {
        socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
        int at = lower.indexOf("content-length:");
        int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).trim());
        in.readNBytes(length);
        return status(head.toString());
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    @Test
    void opsEndpointsAndRoutesWithTheirTokens() throws IOException {
        OpsServer server = start(builder().ops(new PrometheusRegistry(), () -> false).opsToken(OPS_TOKEN).routeToken(API_TOKEN));
        server.route("/things", exchange -> OpsServer.respond(exchange, 200, "application/json",
                ("{\"path\":\"" + exchange.getRequestURI().getPath() + "\"}").getBytes(StandardCharsets.UTF_8)));
        int port = server.port();
        assertThat(status(get(port, "/healthz", null))).isEqualTo(200);
        String metrics = get(port, "/metrics", null);
        assertThat(status(metrics)).isEqualTo(401);
        assertThat(metrics).containsIgnoringCase("WWW-Authenticate: Bearer");
        assertThat(status(get(port, "/metrics", "Bearer " + API_TOKEN))).isEqualTo(401);
        String scraped = get(port, "/metrics", "Bearer " + OPS_TOKEN);
        assertThat(status(scraped)).isEqualTo(200);
        assertThat(scraped).contains(BuildInfo.METRIC + "{commit=");
        assertThat(status(get(port, "/readyz", "Bearer " + OPS_TOKEN))).isEqualTo(503);
        assertThat(status(get(port, "/things/a", null))).isEqualTo(401);
        assertThat(status(get(port, "/things/a", "Bearer " + OPS_TOKEN))).isEqualTo(401);
        String thing = get(port, "/things/a%20b?x=1", "Bearer " + API_TOKEN);
        assertThat(status(thing)).isEqualTo(200);
        assertThat(thing).containsIgnoringCase("Content-Type: application/json").endsWith("{\"path\":\"/things/a b\"}");
        assertThat(status(get(port, "/nothing", "Bearer " + API_TOKEN))).isEqualTo(404);
    }

    @Test
    void theStatusPageAloneTakesTheTokenFromItsQuery() throws IOException {
        // a browser opening the page from a link, and its EventSource, cannot send an Authorization header
        OpsServer server = start(builder().routeToken(API_TOKEN));
        server.route("/status/", exchange -> OpsServer.respond(exchange, 200, "text/plain", new byte[] {'s'}));
        server.route("/targets", exchange -> OpsServer.respond(exchange, 200, "text/plain", new byte[] {'t'}));
        int port = server.port();
        assertThat(status(get(port, "/status/", null))).isEqualTo(401);
        assertThat(status(get(port, "/status/events?token=wrong-token-0123456789", null))).isEqualTo(401);
        assertThat(status(get(port, "/status/events?token=" + API_TOKEN, null))).isEqualTo(200);
        assertThat(status(get(port, "/status/?x=1&token=" + API_TOKEN, null))).isEqualTo(200);
        assertThat(status(get(port, "/targets?token=" + API_TOKEN, null))).as("the query API wants the header").isEqualTo(401);
        assertThat(status(get(port, "/targets", "Bearer " + API_TOKEN))).isEqualTo(200);
    }

    @Test
    void aServerWithoutOpsEndpointsServesOnlyItsRoutes() throws IOException {
        OpsServer api = start(builder());
        api.route("/targets", exchange -> OpsServer.respond(exchange, 200, "text/plain", new byte[] {'t'}));
        assertThat(status(get(api.port(), "/healthz", null))).isEqualTo(404);
        assertThat(status(get(api.port(), "/metrics", null))).isEqualTo(404);
        assertThat(status(get(api.port(), "/targets", null))).isEqualTo(200);
    }

    @Test
    void aFullPoolAnswers503AndHealthzStillAnswers() throws Exception {
        HttpLimits limits = new HttpLimits(100, Duration.ofSeconds(10), Duration.ofSeconds(10), 1, 0, 1024);
        OpsServer server = start(builder().limits(limits).ops(new PrometheusRegistry(), () -> true));
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.route("/slow", exchange -> {
            entered.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            OpsServer.respond(exchange, 200, "text/plain", new byte[] {'s'});
        });
        Thread first = new Thread(() -> {
            try {
                get(server.port(), "/slow", null);
            } catch (IOException ignored) {
                // the answer is not what this test checks
            }
        });
        first.start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(status(get(server.port(), "/slow", null))).isEqualTo(503);
        assertThat(status(get(server.port(), "/healthz", null))).isEqualTo(200);
        assertThat(status(get(server.port(), "/readyz", null))).isEqualTo(200);
        release.countDown();
        first.join(10_000);
    }

    @Test
    void aSlowLorisIsCutOffByTheRequestDeadlineAndASilentClientByTheIdleOne() throws Exception {
        HttpLimits limits = new HttpLimits(100, Duration.ofMillis(500), Duration.ofMillis(700), 2, 10, 1024);
        OpsServer server = start(builder().limits(limits).ops(new PrometheusRegistry(), () -> true));
        try (Socket loris = new Socket("127.0.0.1", server.port()); Socket silent = new Socket("127.0.0.1", server.port())) {
            loris.setSoTimeout(5_000);
            silent.setSoTimeout(5_000);
            OutputStream out = loris.getOutputStream();
            byte[] partial = "GET /healthz HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
            // a byte every 100 ms keeps the idle deadline away, never the request deadline: the request never ends,
            // so only the server can end this loop early (its bound is far beyond the deadline, for a loaded machine)
            int sent = 0;
            boolean closed = false;
            for (; sent < LORIS_MAX_BYTES && !closed; sent++) {
                try {
                    out.write(sent < partial.length ? partial[sent] : 'a');
                    out.flush();
                } catch (IOException e) {
                    closed = true;
                }
                Thread.sleep(100);
            }
            assertThat(closed || loris.getInputStream().read() == -1).as("the trickling client was cut off").isTrue();
            assertThat(sent).as("cut while it was still sending").isLessThan(LORIS_MAX_BYTES);
            assertThat(silent.getInputStream().read()).isEqualTo(-1);
        }
        // and a keep-alive connection that goes quiet after an answer is closed too
        try (Socket keepAlive = new Socket("127.0.0.1", server.port())) {
            keepAlive.setSoTimeout(5_000);
            keepAlive.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = keepAlive.getInputStream();
            byte[] buffer = new byte[4096];
            int total = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
            }
            assertThat(total).isPositive();
        }
    }

    @Test
    void connectionsBeyondTheCapAreClosedAtOnce() throws Exception {
        HttpLimits limits = new HttpLimits(3, Duration.ofSeconds(30), Duration.ofSeconds(30), 1, 4, 1024);
        OpsServer server = start(builder().limits(limits).ops(new PrometheusRegistry(), () -> true));
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Socket s = new Socket("127.0.0.1", server.port());
                held.add(s);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.openConnections() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            try (Socket extra = new Socket("127.0.0.1", server.port())) {
                extra.setSoTimeout(5_000);
                assertThat(extra.getInputStream().read()).isEqualTo(-1);
            }
            held.remove(0).close();
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.openConnections() >= 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(status(get(server.port(), "/healthz", null))).isEqualTo(200);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void healthzKeepsAnsweringWhile1000SlowClientsHoldConnections() throws Exception {
        int slowClients = 1_000;
        HttpLimits limits = new HttpLimits(HttpLimits.DEFAULT_MAX_CONNECTIONS, Duration.ofSeconds(60), Duration.ofSeconds(60),
                2, 16, 1024);
        OpsServer server = start(builder().limits(limits).ops(new PrometheusRegistry(), () -> true));
        List<Socket> slow = new ArrayList<>(slowClients);
        try {
            byte[] partial = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
            // from eight source addresses: one address alone may hold no more than its share
            for (int i = 0; i < slowClients; i++) {
                Socket s = new Socket();
                s.bind(new InetSocketAddress("127.0.0." + (2 + i % 8), 0));
                s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
                s.getOutputStream().write(partial);
                slow.add(s);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (server.openConnections() < slowClients && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(server.openConnections()).isGreaterThanOrEqualTo(slowClients);
            // a monitoring client on a keep-alive connection, as a load balancer or kubelet would be: every request is
            // answered, the half-sent requests hold sockets, not the event loop or the request threads
            // (the latencies are printed for docs/SECURITY.md, not asserted: a loaded machine decides those)
            int samples = 300;
            long[] latencies = new long[samples];
            try (Socket monitor = new Socket("127.0.0.1", server.port())) {
                monitor.setSoTimeout(10_000);
                for (int i = 0; i < samples; i++) {
                    long start = System.nanoTime();
                    assertThat(keepAliveHealthz(monitor)).isEqualTo(200);
                    latencies[i] = System.nanoTime() - start;
                    // a slow client trickles one more byte now and then: it stays open and keeps holding its connection
                    slow.get(i % slowClients).getOutputStream().write('a');
                }
            }
            // and a fresh connection still gets in
            assertThat(status(get(server.port(), "/healthz", null))).isEqualTo(200);
            java.util.Arrays.sort(latencies);
            System.out.printf("healthz with %d slow clients holding connections: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    slowClients, latencies[samples / 2] / 1e6, latencies[(int) Math.ceil(samples * 0.99) - 1] / 1e6,
                    latencies[samples - 1] / 1e6);
            // every slow client is still connected: none was answered or dropped
            assertThat(server.openConnections()).isGreaterThanOrEqualTo(slowClients);
        } finally {
            for (Socket s : slow) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing test sockets
                }
            }
        }
    }

    @Test
    void optionsFromSettingsHideTheirTokens(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
        java.nio.file.Path file = dir.resolve("token");
        java.nio.file.Files.writeString(file, OPS_TOKEN + "\n");
        HttpOptions options = HttpOptions.from(java.util.Map.of("ops.port", "9100", "http.token", API_TOKEN,
                "ops.token.file", file.toString(), "http.max.connections", "50", "http.threads", "3"));
        assertThat(options.separateOps()).isTrue();
        assertThat(options.opsToken()).isEqualTo(OPS_TOKEN);
        assertThat(options.apiToken()).isEqualTo(API_TOKEN);
        assertThat(options.limits().maxConnections()).isEqualTo(50);
        assertThat(options.toString()).doesNotContain(API_TOKEN).doesNotContain(OPS_TOKEN);
        assertThat(HttpOptions.from(java.util.Map.of()).separateOps()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HttpOptions.from(java.util.Map.of("ops.port", "x",
                        "http.token", "short", "http.queue", "-1")))
                .hasMessageContaining("ops.port: x (expected: 0..65535)")
                .hasMessageContaining("http.token: (hidden, 5 characters) (expected: 16-4096")
                .hasMessageContaining("http.queue: -1 (expected: 0..1000000)")
                .hasMessageNotContaining("short");
    }

    @Test
    void withoutAnApiTokenTheOptionsSaySoAndNameTheSetting() {
        assertThat(HttpOptions.defaults().openApiWarning()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("need no token").contains("http.token");
        assertThat(HttpOptions.from(java.util.Map.of("http.token", API_TOKEN)).openApiWarning()).isEmpty();
    }
}
