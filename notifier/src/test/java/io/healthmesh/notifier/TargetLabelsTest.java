package io.healthmesh.notifier;

import io.healthmesh.embedded.FreePorts;
import io.healthmesh.core.retry.Backoff;
import io.healthmesh.testkit.Await;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The targets reader when no broker answers (a free loopback port nothing listens on): every metadata request times
 * out, and the reader keeps trying with backoff, says what it waits for, and still ends promptly on close.
 */
class TargetLabelsTest {

    @TempDir
    Path dir;

    private static double metric(PrometheusRegistry registry, String name) {
        return registry.scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals(name))
                .flatMap(s -> s.getDataPoints().stream())
                .mapToDouble(d -> d instanceof CounterDataPointSnapshot c ? c.getValue()
                        : ((GaugeDataPointSnapshot) d).getValue())
                .sum();
    }

    @Test
    void aReaderThatCannotReachTheBrokerKeepsTryingAndStopsOnClose() throws Exception {
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes: [{name: hook, type: webhook, url: 'http://127.0.0.1:9/h'}]\n");
        NotifierConfig config = NotifierConfig.from(Map.of(
                "bootstrap.servers", "127.0.0.1:" + FreePorts.one(),
                "schema.registry.url", "http://127.0.0.1:" + FreePorts.one(),
                "topic.prefix", "unreachable.",
                "routes.file", routes.toString()));
        PrometheusRegistry registry = new PrometheusRegistry();
        NotifierMetrics metrics = new NotifierMetrics(registry, List.of(), () -> null);
        TargetLabels labels = new TargetLabels(config, metrics, Duration.ofMillis(200),
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(100)));
        try {
            Await.until(Duration.ofSeconds(30),
                    () -> metric(registry, "healthmesh_notifier_targets_read_failures") >= 3,
                    () -> "failures: " + metric(registry, "healthmesh_notifier_targets_read_failures"));
            assertThat(labels.running()).as("the reader survived its failures").isTrue();
            assertThat(labels.caughtUp()).isFalse();
            assertThat(labels.waitingFor()).contains("Timeout");
            assertThat(metric(registry, "healthmesh_notifier_targets_waiting")).isEqualTo(1);
        } finally {
            long start = System.nanoTime();
            labels.close();
            assertThat(labels.running()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        }
    }
}
