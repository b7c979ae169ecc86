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

    @TempDir
    Path stateDir;

    private static double asks(AggregatorDriver d) {
        return d.metric(AggregatorMetrics.EARLY_COMMITS, null);
    }

    @Test
    void stateChangesOfFreshInputAskAndCountersAlone() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            // the DETECTING event asks; the group's first event, a moment later on the same thread, is held
            assertThat(asks(d)).isEqualTo(1);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(asks(d)).as("the held request goes out with the punctuation after the gap").isEqualTo(2);
            d.at(2).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(asks(d)).as("a result that only moves counters asks nothing").isEqualTo(2);
            d.at(3).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(asks(d)).isEqualTo(3);
        }
    }

    @Test
    void stateChangesOfOldInputDoNotAsk() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            double before = asks(d);
            // a backlog (after a restart, or a thread falling behind): results 1.5 s older than the aggregator's clock
            d.at(5);
            for (int i = 0; i < 3; i++) {
                d.resultStamped(WEB, "default", Outcome.CONNECTION_REFUSED, d.now() - 1_500 + i);
            }
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus())
                    .isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(asks(d)).isEqualTo(before);
        }
    }

    @Test
    void staleTargetsAsk() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir)) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            double before = asks(d);
            d.at(600);
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStale()).isEqualTo(true);
            assertThat(asks(d)).isGreaterThan(before);
        }
    }

    @Test
    void offAsksNothing() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("commit.on.change", "false"))) {
            d.at(0).define(WEB);
            for (int s = 1; s <= 3; s++) {
                d.at(s).result(WEB, "default", Outcome.SUCCESS, 100);
            }
            assertThat(d.healthEvents()).last().extracting(r -> r.value().getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(asks(d)).isZero();
        }
    }
}
