package io.healthmesh.ops;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits of {@link OpsServer} against one greedy client and against a handler that never answers: a client's
 * share of the connections, the reserve that keeps {@code /healthz} and {@code /readyz} answerable when every
 * ordinary connection is taken, and the deadline of an answer.
 */
class OpsServerLimitsTest {

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private OpsServer start(HttpLimits limits) throws IOException {
        OpsServer server = OpsServer.builder(new InetSocketAddress("127.0.0.1", 0)).limits(limits)
                .ops(new PrometheusRegistry(), () -> true).start();
        open.add(server);
        server.route("/targets", exchange -> OpsServer.respond(exchange, 200, "text/plain", new byte[] {'t'}));
        return server;
    }

    private Socket halfSentRequest(String from, int port) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.getOutputStream().write("GET /targets HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
        open.add(s);
        return s;
    }

    private static int status(String response) {
        return response.startsWith("HTTP/1.1 ") ? Integer.parseInt(response.substring(9, 12)) : -1;
    }

    private static void awaitOpen(OpsServer server, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.openConnections() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Test
    void oneClientHoldsItsShareAndNoMore() throws Exception {
        OpsServer server = start(HttpLimits.defaults().withConnections(50, 8, 4));
        List<Socket> greedy = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            greedy.add(halfSentRequest("127.0.0.2", server.port()));
        }
        awaitOpen(server, 8);
        int held = 0;
        for (Socket s : greedy) {
            s.setSoTimeout(300);
            try {
                if (s.getInputStream().read() != -1) {
                    held++;
                }
            } catch (SocketTimeoutException e) {
                held++;
            } catch (IOException e) {
                // reset: closed
            }
        }
        assertThat(held).as("connections one client keeps (its share, and at most two probe connections)").isBetween(8, 10);
        assertThat(status(OpsServerTest.get(server.port(), "/targets", null))).isEqualTo(200);
    }

    @Test
    void whenEveryOrdinaryConnectionIsTakenOnlyTheProbesAreServed() throws Exception {
        OpsServer server = start(HttpLimits.defaults().withConnections(20, 10, 4));
        for (String from : List.of("127.0.0.2", "127.0.0.3")) {
            for (int i = 0; i < 10; i++) {
                halfSentRequest(from, server.port());
            }
        }
        awaitOpen(server, 20);
        assertThat(status(OpsServerTest.get(server.port(), "/healthz", null))).isEqualTo(200);
        assertThat(status(OpsServerTest.get(server.port(), "/readyz", null))).isEqualTo(200);
        String refused = OpsServerTest.get(server.port(), "/targets", null);
        assertThat(status(refused)).as(refused).isEqualTo(503);
    }

    @Test
    void aHandlerThatNeverAnswersDoesNotKeepTheConnectionPastTheAnswerDeadline() throws Exception {
        HttpLimits limits = HttpLimits.defaults().withAnswerTimeout(Duration.ofMillis(500));
        OpsServer server = start(limits);
        CountDownLatch release = new CountDownLatch(1);
        server.route("/stuck", exchange -> {
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            long start = System.nanoTime();
            socket.getOutputStream().write("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            int first;
            try {
                first = socket.getInputStream().read();
            } catch (SocketTimeoutException e) {
                first = -2;
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(first).as("closed by the server, not left open").isEqualTo(-1);
            assertThat(ms).isLessThan(5_000);
        } finally {
            release.countDown();
        }
    }

    @Test
    void perClientAndReserveSettingsAreReadAndChecked() {
        HttpLimits limits = HttpLimits.from(java.util.Map.of("http.max.connections.per.client", "12",
                "http.probe.connections", "3", "http.answer.timeout.ms", "2000"), "http.");
        assertThat(limits.maxConnectionsPerClient()).isEqualTo(12);
        assertThat(limits.probeConnections()).isEqualTo(3);
        assertThat(limits.answerTimeout()).isEqualTo(Duration.ofSeconds(2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HttpLimits.from(java.util.Map.of(
                        "http.max.connections", "10", "http.max.connections.per.client", "11"), "http."))
                .hasMessageContaining("max.connections.per.client: 11 (expected: 1..10, at most max.connections)");
    }
}
