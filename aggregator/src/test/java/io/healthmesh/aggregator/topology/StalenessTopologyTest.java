package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
