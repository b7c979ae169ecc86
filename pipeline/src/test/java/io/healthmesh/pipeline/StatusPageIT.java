package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.HeadlessChromium;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.status.StatusWorker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status page in a real browser (Debian's headless Chromium through its chromedriver), served by the status role
 * next to a real prober and aggregator on the test broker: the page lists every target with its group, labels and latency history; a backend
 * the test stops turns its row UNHEALTHY within 2 s of the state event reaching a {@code read_committed} consumer
 * (pushed by server-sent events: the page never reloads); a group whose only member fails shows its fail-open banner;
 * the filters narrow the table. Skipped where Chromium is not installed, except in CI ({@code CI=true}), where that
 * is a failure ({@code .ci/run} installs it). A screenshot is written to {@code target/status-page.png}.
 */
@ExtendWith(KafkaExtension.class)
class StatusPageIT {

    private static final Logger LOG = LoggerFactory.getLogger(StatusPageIT.class);
    private static final int INTERVAL_MS = 1_000;
    private static final int TIMEOUT_MS = 500;
    private static final long PUSH_BOUND_MS = 2_000;
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    /** Records, per row, the browser time at which each (target, status) first appeared in the table. */
    private static final String OBSERVE = """
            window.__firstSeen = {};
            const note = () => {
              for (const tr of document.querySelectorAll('#rows tr[data-status]')) {
                const k = tr.dataset.target + '/' + tr.dataset.status;
                if (!(k in window.__firstSeen)) window.__firstSeen[k] = Date.now();
              }
            };
            note();
            new MutationObserver(note).observe(document.getElementById('rows'), {childList: true, subtree: true});
            return 'ok';
            """;

    @TempDir
    Path stateDir;

    @TempDir
    Path browserDir;

    /** Skips without Chromium on a developer machine, fails in CI. */
    @BeforeAll
    static void chromiumInstalled() {
        HeadlessChromium.assumeInstalled();
    }

    @Test
    @Timeout(180) // pipeline start 40-90 s and Chromium start up to 50 s measured at load averages of 40-66 here
    void thePageListsTargetsFollowsAStoppedBackendLiveAndShowsAFailOpenGroup(TestKafka kafka) throws Exception {
        Map<String, LoopbackHttpBackend> backends = new LinkedHashMap<>();
        // Chromium starts while the pipeline does: on a loaded machine each takes tens of seconds
        CompletableFuture<HeadlessChromium> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return HeadlessChromium.start(browserDir, 1360, 900);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try (Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            List<TargetSpec> specs = new ArrayList<>();
            for (String id : List.of("web-1", "web-2", "web-3", "api-1", "api-2", "batch-1")) {
                LoopbackHttpBackend backend = LoopbackHttpBackend.start("127.0.0.1");
                backends.put(id, backend);
                String group = id.substring(0, id.indexOf('-'));
                specs.add(spec(id, group, backend, Map.of("tier", group.equals("web") ? "front" : "back",
                        "team", group.equals("batch") ? "data" : "platform")));
            }
            StatusWorker statusPage = pipeline.startStatusPage();
            pipeline.startProber("a", List.of());
            specs.forEach(pipeline::define);
            for (TargetSpec spec : specs) {
                awaitStatus(pipeline, spec.id(), HealthStatus.HEALTHY, 0L);
            }

            LOG.info("step: every target HEALTHY on health-state");
            try (HeadlessChromium browser = starting.get(60, TimeUnit.SECONDS)) {
                LOG.info("step: Chromium ready");
                String url = "http://127.0.0.1:" + statusPage.httpPort() + "/status/";
                browser.open(url);
                Await.until(PATIENCE, () -> rowCount(browser, "HEALTHY") == specs.size(),
                        () -> "every target listed HEALTHY on " + url + "; rows: " + rows(browser));
                assertThat(browser.string("return document.getElementById('connection').textContent").orElseThrow())
                        .isEqualTo("live");
                assertThat(browser.string("return document.querySelector('tr[data-target=\"web-1\"]').innerText")
                        .orElseThrow()).contains("web-1", "web", "tier=front", "ms");
                Await.until(PATIENCE, () -> browser.string("return String(document.querySelectorAll("
                        + "'tr[data-target=\"web-1\"] svg.spark polyline').length)").orElse("0").equals("1"),
                        () -> "a latency history drawn for web-1");
                LOG.info("step: page loaded with every target HEALTHY");
                browser.execute(OBSERVE);
                String marker = browser.string("window.__sameDocument = 'yes'; return 'set'").orElseThrow();
                assertThat(marker).isEqualTo("set");

                backends.get("web-1").close();
                Received<TargetHealth> down = awaitStatus(pipeline, "web-1", HealthStatus.UNHEALTHY, 0L);
                long shownAt = Await.value(PATIENCE, () -> firstSeen(browser, "web-1/UNHEALTHY"),
                        () -> "web-1 shown UNHEALTHY; rows: " + rows(browser));
                long pushMs = shownAt - down.receivedAtMs();
                LOG.info("measured: web-1 shown UNHEALTHY {} ms after a read_committed consumer received the event",
                        pushMs);
                assertThat(pushMs).as("ms from the state event to the row turning UNHEALTHY").isLessThan(PUSH_BOUND_MS);
                assertThat(browser.string("return window.__sameDocument").orElse("reloaded"))
                        .as("the page updated in place, without a reload").isEqualTo("yes");
                assertThat(browser.string("return document.querySelector('#rows tr[data-target=\"web-1\"] td.reason')"
                        + ".textContent").orElseThrow()).startsWith("CONNECTION_REFUSED");
                assertThat(bannerGroups(browser)).as("no fail-open group yet").isEmpty();

                backends.get("batch-1").close();
                awaitStatus(pipeline, "batch-1", HealthStatus.UNHEALTHY, 0L);
                Await.value(PATIENCE, () -> pipeline.groups().all().stream()
                        .filter(r -> r.key().equals("batch") && r.value() != null && r.value().getFailOpen())
                        .findFirst(), () -> "group batch fail-open on group-state");
                Await.until(Duration.ofSeconds(5), () -> bannerGroups(browser).equals("batch"),
                        () -> "the fail-open banner of group batch; banners: " + bannerGroups(browser));
                assertThat(browser.string("return document.querySelector('.group[data-group=\"batch\"]').className")
                        .orElseThrow()).contains("fail-open");

                browser.execute("document.getElementById('f-status').value = 'UNHEALTHY';"
                        + "document.getElementById('f-status').dispatchEvent(new Event('change'));");
                Await.until(Duration.ofSeconds(5), () -> rows(browser).equals("batch-1,web-1"),
                        () -> "status filter UNHEALTHY; rows: " + rows(browser));
                browser.execute("const l = document.getElementById('f-label'); l.value = 'tier=front';"
                        + "l.dispatchEvent(new Event('input'));");
                Await.until(Duration.ofSeconds(5), () -> rows(browser).equals("web-1"),
                        () -> "status UNHEALTHY and label tier=front; rows: " + rows(browser));
                browser.execute("document.getElementById('f-status').value = '';"
                        + "document.getElementById('f-status').dispatchEvent(new Event('change'));"
                        + "const g = document.getElementById('f-group'); g.value = 'api';"
                        + "g.dispatchEvent(new Event('change'));"
                        + "const l = document.getElementById('f-label'); l.value = '';"
                        + "l.dispatchEvent(new Event('input'));");
                Await.until(Duration.ofSeconds(5), () -> rows(browser).equals("api-1,api-2"),
                        () -> "group filter api; rows: " + rows(browser));
                browser.execute("const g = document.getElementById('f-group'); g.value = '';"
                        + "g.dispatchEvent(new Event('change'));"
                        + "document.getElementById('f-problems').click();");
                Await.until(Duration.ofSeconds(5), () -> rows(browser).startsWith("batch-1,web-1,"),
                        () -> "problems first; rows: " + rows(browser));
                Path shot = Path.of("target", "status-page.png");
                browser.screenshot(shot);
                LOG.info("screenshot written to {}", shot.toAbsolutePath());
            }
        } finally {
            backends.values().forEach(LoopbackHttpBackend::close);
            starting.thenAccept(HeadlessChromium::close); // when the test failed before taking the browser
        }
    }

    private static TargetSpec spec(String id, String group, LoopbackHttpBackend backend, Map<String, String> labels) {
        TargetSpec s = TargetSpec.of(id, group, backend.host(), backend.port(), Protocol.HTTP)
                .withTiming(INTERVAL_MS, TIMEOUT_MS).withThresholds(2, 2);
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), labels, s.http(), s.udp(),
                s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static Received<TargetHealth> awaitStatus(Pipeline pipeline, String id, HealthStatus status, long after) {
        return Await.value(PATIENCE, () -> pipeline.health().first(id, h -> h != null && h.getStatus() == status)
                        .filter(r -> r.receivedAtMs() >= after),
                () -> id + " " + status + " on health-state");
    }

    private static long rowCount(HeadlessChromium browser, String status) {
        return Long.parseLong(browser.string("return String(document.querySelectorAll("
                + "'#rows tr[data-status=\"" + status + "\"]').length)").orElse("0"));
    }

    private static String rows(HeadlessChromium browser) {
        return browser.string("return Array.from(document.querySelectorAll('#rows tr[data-target]'))"
                + ".map(tr => tr.dataset.target).join(',')").orElse("?");
    }

    private static String bannerGroups(HeadlessChromium browser) {
        return browser.string("return Array.from(document.querySelectorAll('#banners .banner'))"
                + ".map(b => b.dataset.group).join(',')").orElse("?");
    }

    private static Optional<Long> firstSeen(HeadlessChromium browser, String key) {
        return browser.string("const t = window.__firstSeen && window.__firstSeen[arguments[0]];"
                + "return t === undefined ? null : String(t)", key).map(Long::parseLong);
    }
}
