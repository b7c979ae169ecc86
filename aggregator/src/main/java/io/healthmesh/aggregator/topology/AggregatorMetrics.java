package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.IgnoredBecause;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.streams.StreamsMetrics;

import java.util.HashMap;
import java.util.Map;

/**
 * The aggregator's own counters, registered as Kafka Streams sensors so that one bridge exposes them with the
 * Streams metrics on {@code /metrics} and {@code TopologyTestDriver.metrics()} shows them in tests. Sensors are
 * shared by name across the tasks of an instance: the counts are per instance.
 */
final class AggregatorMetrics {

    /** Metric group of every counter here. */
    static final String GROUP = "healthmesh-aggregator";
    static final String REJECTED = "rejected-records-total";
    static final String IGNORED = "ignored-results-total";
    static final String HEALTH_EVENTS = "health-events-total";
    static final String PUNCTUATION_FAILURES = "staleness-check-failures-total";
    static final String GROUP_EVENTS = "group-events-total";
    static final String STALENESS_CHECKS = "staleness-checks-total";
    static final String EARLY_COMMITS = "early-commits-total";
    static final String STATUS_CHANGE_DELAY_MAX = "status-change-delay-max-seconds";
    static final String STATUS_CHANGE_DELAY_AVG = "status-change-delay-avg-seconds";
    static final String READ_CLOCK_BEHIND_MAX = "staleness-clock-behind-max-seconds";
    static final String UNKNOWN_TARGET_RESULTS = "unknown-target-results-total";

    private final StreamsMetrics metrics;
    private final Map<String, Sensor> sensors = new HashMap<>();

    AggregatorMetrics(StreamsMetrics metrics) {
        this.metrics = metrics;
    }

    /** An input record sent to the rejected topic. */
    void rejected(String reason) {
        count(REJECTED, "Input records sent to the rejected topic, by reason.", "reason", reason);
    }

    /**
     * A result for a target with no definition yet: {@code held} when it starts waiting for the definition, {@code
     * applied} when the definition came and the result was applied (the others are counted as rejected).
     */
    void unknownTargetResult(String outcome) {
        count(UNKNOWN_TARGET_RESULTS, "Results for targets with no definition yet: held until it is read, and"
                + " applied once it was (the rest are rejected as UNKNOWN_TARGET).", "outcome", outcome);
    }

    /** A probe result that changed nothing. */
    void ignored(IgnoredBecause because) {
        count(IGNORED, "Probe results ignored (other generation, out of order, disabled, unlisted region, inconclusive).",
                "reason", because.name());
    }

    /** A target whose staleness check failed (its state is left as it was; the others are checked). */
    void punctuationFailed() {
        count(PUNCTUATION_FAILURES, "Targets whose staleness check failed.", null, null);
    }

    /** Targets whose staleness was checked by one punctuation (only those due are). */
    void stalenessChecked(int targets) {
        if (targets == 0) {
            return;
        }
        sensors.computeIfAbsent("healthmesh." + STALENESS_CHECKS, n -> {
            Sensor sensor = metrics.addSensor(n, Sensor.RecordingLevel.INFO);
            sensor.add(new MetricName(STALENESS_CHECKS, GROUP, "Targets whose staleness was checked (those due).",
                    Map.of()), new CumulativeSum());
            return sensor;
        }).record(targets);
    }

    void healthEvent() {
        count(HEALTH_EVENTS, "TargetHealth events and tombstones produced.", null, null);
    }

    void groupEvent() {
        count(GROUP_EVENTS, "GroupHealth events and tombstones produced.", null, null);
    }

    /**
     * A probe result changed a target's status: {@code delayMs} passed from that probe's completion (the prober's
     * clock) to the state event being written here. The event becomes visible to {@code read_committed} readers with
     * the next commit, so probe -> event is this plus the wait for that commit. Kafka's sampled max and average
     * (two samples of 30 s by default, so a value counts for 60 to 90 s); a negative delay (the prober's clock
     * ahead) counts as zero.
     */
    void statusChangeDelay(long delayMs) {
        sensors.computeIfAbsent("healthmesh.status-change-delay", n -> {
            Sensor sensor = metrics.addSensor(n, Sensor.RecordingLevel.INFO);
            String what = " time, over the last 60 to 90 s, from the completion of a probe whose result changed a"
                    + " target's status to the state event's write (before its commit).";
            sensor.add(new MetricName(STATUS_CHANGE_DELAY_MAX, GROUP, "Longest" + what, Map.of()), new Max());
            sensor.add(new MetricName(STATUS_CHANGE_DELAY_AVG, GROUP, "Mean" + what, Map.of()), new Avg());
            return sensor;
        }).record(Math.max(0, delayMs) / 1000.0);
    }

    /**
     * How far a task's staleness clock ({@link io.healthmesh.aggregator.domain.ReadClock}) was behind the wall clock
     * at a punctuation: about 0 when the task has caught up with its input, the depth of the backlog it reads while
     * it catches up (nothing goes stale for its own lag meanwhile). Kafka's sampled max over all tasks, as above.
     */
    void readClockBehind(long behindMs) {
        sensors.computeIfAbsent("healthmesh." + READ_CLOCK_BEHIND_MAX, n -> {
            Sensor sensor = metrics.addSensor(n, Sensor.RecordingLevel.INFO);
            sensor.add(new MetricName(READ_CLOCK_BEHIND_MAX, GROUP, "Longest, over the last 60 to 90 s, that a"
                    + " task's staleness clock (how far into the present it has read its input) was behind the wall"
                    + " clock at a staleness check.", Map.of()), new Max());
            return sensor;
        }).record(behindMs / 1000.0);
    }

    /** A commit asked of Kafka Streams ahead of its interval, after a state event ({@link EarlyCommits}). */
    void earlyCommitRequested() {
        count(EARLY_COMMITS, "Commits asked of Kafka Streams ahead of commit.interval.ms because a state event was"
                + " written.", null, null);
    }

    private void count(String name, String description, String tag, String value) {
        String sensorName = "healthmesh." + name + (tag == null ? "" : "." + value);
        sensors.computeIfAbsent(sensorName, n -> {
            Sensor sensor = metrics.addSensor(n, Sensor.RecordingLevel.INFO);
            // add() is idempotent for the same metric name, so tasks sharing the sensor do not clash
            sensor.add(new MetricName(name, GROUP, description, tag == null ? Map.of() : Map.of(tag, value)),
                    new CumulativeCount());
            return sensor;
        }).record();
    }
}
