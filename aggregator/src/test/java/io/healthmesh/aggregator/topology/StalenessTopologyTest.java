package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** BEHAVIOUR.md section 6 through the topology, on wall-clock punctuation driven by a fake clock. */
class StalenessTopologyTest {

    /** interval 5 s, timeout 2 s: window 3 x 5 + 2 = 17 s. */
    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);

    @TempDir
    Path stateDir;

    @Test
    void staleIsEmittedOnceAfterTheWindowWithTheStatusKeptAndClearedWhenResultsResume() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            for (int i = 1; i <= 3; i++) {
                d.at(i).result(WEB, "default", Outcome.SUCCESS, 100);
            }
            d.healthEvents();
            d.groupEvents();
            // last result heard at 3 s: stale strictly after 20 s, seen by the first punctuation after that (21 s)
            d.at(20);
            assertThat(d.health.isEmpty()).isTrue();
            d.at(21);
            List<TestRecord<String, TargetHealth>> events = d.healthEvents();
            assertThat(events).hasSize(1);
            TargetHealth stale = events.get(0).value();
            assertThat(stale.getStale()).isTrue();
            assertThat(stale.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(stale.getRegions().get(0).getStale()).isTrue();
            assertThat(events.get(0).timestamp()).isEqualTo(d.now());
            // once only, however long the silence lasts
            d.at(200);
            assertThat(d.health.isEmpty()).isTrue();
            assertThat(d.groups.isEmpty()).as("staleness alone does not change routing").isTrue();

            d.at(201).result(WEB, "default", Outcome.TIMEOUT, 100);
            TargetHealth fresh = d.healthEvents().get(0).value();
            assertThat(fresh.getStale()).isFalse();
            assertThat(fresh.getStatus()).as("a stale target never flips by itself").isEqualTo(HealthStatus.HEALTHY);
        }
    }

    /**
     * A punctuation reads only the targets that fell due: targets that keep reporting are never read by it, and a
     * silent one is read once, when its window ends (with every target read each second, the check grew with the
     * number of targets and took the stream thread's time from the results).
     */
    @Test
    void onlyTargetsThatFellDueAreChecked() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0);
            for (int i = 0; i < 20; i++) {
                d.define(TargetSpec.of("t-" + i, "pool", "10.0.0.1", 80 + i, Protocol.HTTP));
            }
            for (int second = 1; second <= 45; second++) {
                d.at(second);
                for (int i = 1; i < 20; i++) { // t-0 stays silent
                    if ((second + i) % 5 == 0) { // every target every 5 s (its interval), spread over the seconds
                        d.result(TargetSpec.of("t-" + i, "pool", "10.0.0.1", 80 + i, Protocol.HTTP), "default",
                                Outcome.SUCCESS, 10);
                    }
                }
            }
            // t-0: defined at 0, never heard: due once, at 18 s (window 17 s), where it went stale
            assertThat(d.metric(AggregatorMetrics.STALENESS_CHECKS, null)).isEqualTo(1.0);
            List<TestRecord<String, TargetHealth>> stale = d.healthEvents().stream()
                    .filter(e -> e.value() != null && e.value().getStale()).toList();
            assertThat(stale).extracting(TestRecord::key).containsExactly("t-0");
            long start = d.now() - 45_000;
            assertThat(stale.get(0).timestamp() - start).isEqualTo(18_000L);
        }
    }

    /**
     * More targets falling due at once than one pass takes: the first pass takes its share and short passes follow
     * (10 ms apart), so every target is stale within a few of them, with commits possible in between.
     */
    @Test
    void aMassOfTargetsFallingDueIsCheckedInPasses() {
        int targets = TargetHealthProcessor.MAX_CHECKS_PER_PASS * 2 + 10;
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of(), UnaryOperator.identity(),
                Stores::inMemoryKeyValueStore)) {
            d.at(0);
            for (int i = 0; i < targets; i++) {
                d.define(TargetSpec.of("t-" + i, "pool", "10.0.0.1", 1 + i % 60_000, Protocol.HTTP));
            }
            d.healthEvents();
            d.at(18); // window 17 s after the definitions: all due; the 1 s punctuation takes one pass
            assertThat(stale(d.healthEvents())).isEqualTo(TargetHealthProcessor.MAX_CHECKS_PER_PASS);
            d.at(18.01);
            assertThat(stale(d.healthEvents())).isEqualTo(TargetHealthProcessor.MAX_CHECKS_PER_PASS);
            d.at(18.02);
            assertThat(stale(d.healthEvents())).isEqualTo(10);
            d.at(25);
            assertThat(d.health.isEmpty()).as("the drain stopped with nothing left").isTrue();
            assertThat(d.metric(AggregatorMetrics.STALENESS_CHECKS, null)).isEqualTo((double) targets);
        }
    }

    private static long stale(List<TestRecord<String, TargetHealth>> events) {
        return events.stream().filter(e -> e.value() != null && e.value().getStale()).count();
    }

    @Test
    void aTargetThatNeverReportsGoesStaleOneWindowAfterItWasDefined() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            d.healthEvents();
            d.at(17);
            assertThat(d.health.isEmpty()).isTrue();
            d.at(18);
            TargetHealth stale = d.healthEvents().get(0).value();
            assertThat(stale.getStale()).isTrue();
            assertThat(stale.getStatus()).isEqualTo(HealthStatus.DETECTING);
        }
    }

    @Test
    void theFactorIsConfigurable() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("staleness.factor", "1"))) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            d.healthEvents();
            d.at(8); // 1 x 5 s + 2 s after 1 s
            assertThat(d.health.isEmpty()).isTrue();
            d.at(9);
            assertThat(d.healthEvents()).singleElement().satisfies(e -> assertThat(e.value().getStale()).isTrue());
        }
    }

    @Test
    void disabledTargetsNeverGoStale() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB.withEnabled(false));
            d.healthEvents();
            d.at(600);
            assertThat(d.health.isEmpty()).isTrue();
        }
    }
}
