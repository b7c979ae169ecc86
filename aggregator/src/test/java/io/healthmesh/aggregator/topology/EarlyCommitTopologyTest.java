package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Early commits through the topology (TopologyTestDriver, fake wall clock): which inputs make the processors ask
 * Kafka Streams for a commit ahead of the interval, read from {@code early-commits-total}.
 */
class EarlyCommitTopologyTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);

    private static final Map<String, String> ON = Map.of("commit.on.change", "true");

    @TempDir
    Path stateDir;

    private static double asks(AggregatorDriver d) {
        return d.metric(AggregatorMetrics.EARLY_COMMITS, null);
    }

    @Test
    void stateChangesOfFreshInputAskAndCountersAlone() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, ON)) {
            d.at(0).define(WEB);
            // the DETECTING event asks; the group's first event, at the same instant on the same thread, is left to
            // the regular commit (one request per interval per thread)
            assertThat(asks(d)).isEqualTo(1);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            d.at(2).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(asks(d)).as("results that only move counters ask nothing").isEqualTo(1);
            d.at(3).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(asks(d)).isEqualTo(2);
        }
    }

    @Test
    void stateChangesOfOldInputDoNotAsk() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, ON)) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            double before = asks(d);
            // a backlog (after a restart, or a thread falling behind): results 150 ms older than the aggregator's
            // clock, the interval being 100 ms
            d.at(5);
            for (int i = 0; i < 3; i++) {
                d.resultStamped(WEB, "default", Outcome.CONNECTION_REFUSED, d.now() - 150 + i);
            }
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus())
                    .isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(asks(d)).isEqualTo(before);
        }
    }

    @Test
    void staleTargetsAsk() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, ON)) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            double before = asks(d);
            d.at(600);
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStale()).isEqualTo(true);
            assertThat(asks(d)).isGreaterThan(before);
        }
    }

    @Test
    void offByDefaultAsksNothing() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            assertThat(d.config.commitOnChange()).isFalse();
            d.at(0).define(WEB);
            for (int s = 1; s <= 3; s++) {
                d.at(s).result(WEB, "default", Outcome.SUCCESS, 100);
            }
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(asks(d)).isZero();
        }
    }
}
