package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The detection windows of BEHAVIOUR.md section 5, reproduced by feeding the results an L7 (fixed-delay) prober would
 * publish, each at its completion time, and reading when the state event says the status changed.
 */
class DetectionWindowExamplesTest {

    @TempDir
    Path stateDir;

    /**
     * Makes {@code spec} reach {@code from}, then probes (fixed delay: the next starts
     * {@code intervalMs} after the last ended) each take {@code latencyMs} and end in {@code outcome}; returns how long
     * after the first such probe started the event reporting {@code to} was dated.
     */
    private long window(TargetSpec spec, Outcome steady, Outcome outcome, long latencyMs, int intervalMs,
                        HealthStatus to) {
        try (AggregatorDriver d = new AggregatorDriver(stateDir.resolve(spec.id()))) {
            d.at(0).define(spec);
            double second = 1;
            for (int i = 0; i < 10; i++, second += 1) {
                d.at(second).result(spec, "default", steady, 100);
            }
            d.healthEvents();
            // right after the steady phase, so that no staleness event comes in between
            long breakAtMs = d.at(second).now();
            long start = breakAtMs;
            for (int probe = 0; probe < 10; probe++) {
                long end = start + latencyMs;
                d.at((end - AggregatorDriver.EPOCH) / 1000.0).result(spec, "default", outcome, latencyMs);
                List<TestRecord<String, TargetHealth>> events = d.healthEvents();
                if (!events.isEmpty()) {
                    TargetHealth h = events.get(0).value();
                    assertThat(h.getStatus()).isEqualTo(to);
                    assertThat(events.get(0).timestamp()).isEqualTo(h.getSinceMs());
                    return h.getSinceMs() - breakAtMs;
                }
                start = end + intervalMs;
            }
            throw new AssertionError("no change to " + to + " after 10 probes");
        }
    }

    @Test
    void clb000TimeoutTwoIntervalFiveThresholdThree() {
        TargetSpec spec = TargetSpec.of("clb", "g", "10.0.0.1", 80, Protocol.HTTP).withTiming(5_000, 2_000);
        long toUnhealthy = window(spec, Outcome.SUCCESS, Outcome.TIMEOUT, 2_000, 5_000, HealthStatus.UNHEALTHY);
        long toHealthy = window(spec, Outcome.TIMEOUT, Outcome.SUCCESS, 1_000, 5_000, HealthStatus.HEALTHY);
        assertThat(toUnhealthy).isEqualTo(16_000);
        assertThat(toHealthy).isEqualTo(13_000);
        DetectionWindow expected = DetectionWindow.of(spec, Duration.ofSeconds(1));
        assertThat(toUnhealthy).isEqualTo(expected.toUnhealthy().toMillis());
        assertThat(toHealthy).isEqualTo(expected.toHealthy().toMillis());
    }

    @Test
    void edgeOne001IntervalThirtyTimeoutFive() {
        TargetSpec spec = TargetSpec.of("eo", "g", "10.0.0.1", 80, Protocol.HTTP).withTiming(30_000, 5_000);
        long toUnhealthy = window(spec, Outcome.SUCCESS, Outcome.TIMEOUT, 5_000, 30_000, HealthStatus.UNHEALTHY);
        assertThat(toUnhealthy).isEqualTo(5_000 + 30_000 + 5_000 + 30_000 + 5_000).isEqualTo(75_000);
        assertThat(toUnhealthy).isEqualTo(DetectionWindow.of(spec, Duration.ofSeconds(1)).toUnhealthy().toMillis());
    }

    @Test
    void globalAccelerator003FixedThreeSecondTimeoutIntervalTwo() {
        // 003's probes time out after a fixed 3 s with a 2 s interval; healthmesh refuses a timeout above the
        // interval, so the definition says 2 s, but the aggregator judges the results, and these take 3 s each
        TargetSpec spec = TargetSpec.of("ga", "g", "10.0.0.1", 80, Protocol.HTTP).withTiming(2_000, 2_000);
        long toUnhealthy = window(spec, Outcome.SUCCESS, Outcome.TIMEOUT, 3_000, 2_000, HealthStatus.UNHEALTHY);
        assertThat(toUnhealthy).isEqualTo(3 * 3_000 + 2 * 2_000).isEqualTo(13_000);
    }
}
