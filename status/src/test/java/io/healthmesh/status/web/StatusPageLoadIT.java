package io.healthmesh.status.web;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.HeadlessChromium;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.RegionRow;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.board.TargetRow;
import io.healthmesh.ops.OpsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status page with 10,000 targets in the headless browser: the page, served by the real {@link StatusPage} and
 * {@link StatusStream} over a board filled directly (no broker: this measures the page, not Kafka), loads the whole
 * board, renders one page of rows, and shows 1,000 targets turning UNHEALTHY at once (together with a new latency
 * point for every target) within a bound; the times are logged as measurements. Skipped (failed in CI) without
 * Chromium, like pipeline's {@code StatusPageIT}.
 */
class StatusPageLoadIT {

    private static final Logger LOG = LoggerFactory.getLogger(StatusPageLoadIT.class);
    private static final int TARGETS = 10_000;
    private static final int FLIPPED = 1_000;

    @TempDir
    Path browserDir;

    @BeforeAll
    static void chromiumInstalled() {
        HeadlessChromium.assumeInstalled();
    }

    @Test
    @Timeout(90)
    void tenThousandTargetsLoadRenderOnePageAndFollowAThousandFlips() throws Exception {
        StatusBoard board = new StatusBoard(20);
        long now = System.currentTimeMillis();
        for (int i = 0; i < TARGETS; i++) {
            board.putTarget(row(i, "HEALTHY", now));
            board.putLabels(id(i), Map.of("tier", i % 2 == 0 ? "front" : "back", "shard", Integer.toString(i % 16)));
            for (int p = 0; p < 20; p++) {
                board.addResult(id(i), new LatencyPoint(now - (20 - p) * 5_000L, 1_000 + (i * 31L + p * 7L) % 9_000,
                        true));
            }
        }
        board.drain();
        ObjectMapper json = new ObjectMapper();
        byte[] snapshot = json.writeValueAsBytes(board.snapshot());
        LOG.info("measured: snapshot of {} targets with 20 results each: {} bytes of JSON", TARGETS, snapshot.length);
        try (OpsServer server = OpsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new PrometheusRegistry(), () -> true);
             StatusStream stream = new StatusStream(board, Duration.ofMillis(250), 4, json).start();
             HeadlessChromium browser = HeadlessChromium.start(browserDir, 1360, 900)) {
            new StatusPage(board, stream, json).mount(server);
            long openAt = System.currentTimeMillis();
            browser.open("http://127.0.0.1:" + server.port() + "/status/");
            Await.until(Duration.ofSeconds(30), () -> summary(browser).startsWith(TARGETS + " targets"),
                    () -> "the page lists " + TARGETS + " targets; summary: " + summary(browser));
            long loadedMs = System.currentTimeMillis() - openAt;
            LOG.info("measured: page open to {} targets listed: {} ms", TARGETS, loadedMs);
            assertThat(rowCount(browser)).as("one page of rows in the DOM, not 10,000").isEqualTo(100);

            long flipAt = System.currentTimeMillis();
            for (int i = 0; i < FLIPPED; i++) {
                board.putTarget(row(i * 10, "UNHEALTHY", flipAt));
            }
            for (int i = 0; i < TARGETS; i++) {
                board.addResult(id(i), new LatencyPoint(flipAt + i, 2_000, i % 10 != 0));
            }
            Await.until(Duration.ofSeconds(10), () -> summary(browser).contains(FLIPPED + " unhealthy"),
                    () -> FLIPPED + " unhealthy shown; summary: " + summary(browser));
            long flipMs = System.currentTimeMillis() - flipAt;
            LOG.info("measured: {} flips and {} latency points shown {} ms after they reached the board", FLIPPED,
                    TARGETS, flipMs);
            // measured 1.1 s at a load average of 24 and 5.0 s at 50 on the shared 2-core machine: the bound catches a
            // page that re-renders everything, not a busy machine
            assertThat(flipMs).as("ms from the board change to the page showing it").isLessThan(10_000);

            browser.execute("const s = document.getElementById('f-status'); s.value = 'UNHEALTHY';"
                    + "s.dispatchEvent(new Event('change'));");
            Await.until(Duration.ofSeconds(5), () -> pager(browser).contains("of " + FLIPPED + " "),
                    () -> "status filter: " + pager(browser));
            long renderStart = System.nanoTime();
            browser.execute("const s = document.getElementById('f-status'); s.value = '';"
                    + "s.dispatchEvent(new Event('change'));"
                    + "const l = document.getElementById('f-label'); l.value = 'shard=3';"
                    + "l.dispatchEvent(new Event('input'));");
            Await.until(Duration.ofSeconds(5), () -> pager(browser).contains("of " + TARGETS / 16 + " "),
                    () -> "label filter: " + pager(browser));
            LOG.info("measured: label filter over {} targets applied in {} ms (round trip through WebDriver)",
                    TARGETS, (System.nanoTime() - renderStart) / 1_000_000);
        }
    }

    private static String id(int i) {
        return String.format("t-%05d", i);
    }

    private static TargetRow row(int i, String status, long at) {
        List<RegionRow> regions = List.of(
                new RegionRow("eu", status, status, false, "HEALTHY".equals(status) ? "SUCCESS" : "TIMEOUT", at),
                new RegionRow("us", status, status, false, "HEALTHY".equals(status) ? "SUCCESS" : "TIMEOUT", at));
        return new TargetRow(id(i), "group-" + (i % 50), status, null, at,
                "HEALTHY".equals(status) ? "SUCCESS" : "TIMEOUT", null, false, 2_000L, at, "MAJORITY", regions, at);
    }

    private static String summary(HeadlessChromium browser) {
        return browser.string("return document.getElementById('summary').textContent").orElse("");
    }

    private static String pager(HeadlessChromium browser) {
        return browser.string("return document.getElementById('page').textContent").orElse("");
    }

    private static long rowCount(HeadlessChromium browser) {
        return Long.parseLong(browser.string("return String(document.querySelectorAll('#rows tr').length)")
                .orElse("0"));
    }
}
