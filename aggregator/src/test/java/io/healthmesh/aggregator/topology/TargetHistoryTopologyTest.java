package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code target-history} store through the topology: bounded, per target, dropped with the target. */
class TargetHistoryTopologyTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP)
            .withThresholds(2, 2);

    @TempDir
    Path stateDir;

    @Test
    void keepsTheLastResultsAndStatusChangesOfEachTargetUpToTheLength() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("history.length", "4"))) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            d.at(2).result(WEB, "default", Outcome.SUCCESS, 100);
            d.at(3).result(WEB, "default", Outcome.TIMEOUT, 100);
            d.at(4).result(WEB, "default", Outcome.TIMEOUT, 100);
            KeyValueStore<String, TargetHistory> store = d.driver.getKeyValueStore(AggregatorTopology.HISTORY_STORE);

            // DETECTING, S, S, HEALTHY, F, F, UNHEALTHY: the newest four
            assertThat(store.get("web-1").entries()).satisfiesExactly(
                    e -> assertThat(e).isEqualTo(new TargetHistory.StatusChange(AggregatorDriver.EPOCH + 2_000,
                            HealthStatus.DETECTING, HealthStatus.HEALTHY)),
                    e -> assertThat(((TargetHistory.Result) e).outcome()).isEqualTo(Outcome.TIMEOUT),
                    e -> assertThat(((TargetHistory.Result) e).outcome()).isEqualTo(Outcome.TIMEOUT),
                    e -> assertThat(e).isEqualTo(new TargetHistory.StatusChange(AggregatorDriver.EPOCH + 4_000,
                            HealthStatus.HEALTHY, HealthStatus.UNHEALTHY)));

            d.at(5).delete("web-1");
            assertThat(store.get("web-1")).isNull();
        }
    }

    @Test
    void lengthZeroKeepsNothing() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("history.length", "0"))) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            assertThat(d.driver.<String, TargetHistory>getKeyValueStore(AggregatorTopology.HISTORY_STORE)
                    .get("web-1")).isNull();
        }
    }

    @Test
    void storeFormatRoundTrips() {
        TargetHistory h = TargetHistory.EMPTY
                .with(new TargetHistory.StatusChange(1, null, HealthStatus.DETECTING), 10)
                .with(new TargetHistory.Result(2, "eu", Outcome.TIMEOUT, 5, "slow"), 10)
                .with(new TargetHistory.Result(3, "us", Outcome.SUCCESS, 7, null), 10)
                .with(new TargetHistory.StatusChange(4, HealthStatus.DETECTING, HealthStatus.HEALTHY), 10);
        TargetHistorySerde serde = new TargetHistorySerde();
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", h))).isEqualTo(h);
    }
}
