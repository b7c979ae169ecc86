package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code target-history-rows} store through the topology: bounded, per target, dropped with the target. */
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
            KeyValueStore<Bytes, byte[]> store = d.driver.getKeyValueStore(AggregatorTopology.HISTORY_STORE);

            // DETECTING, S, S, HEALTHY, F, F, UNHEALTHY: the newest four
            assertThat(HistoryRows.read(store, "web-1", 4).entries()).satisfiesExactly(
                    e -> assertThat(e).isEqualTo(new TargetHistory.StatusChange(AggregatorDriver.EPOCH + 2_000,
                            HealthStatus.DETECTING, HealthStatus.HEALTHY)),
                    e -> assertThat(((TargetHistory.Result) e).outcome()).isEqualTo(Outcome.TIMEOUT),
                    e -> assertThat(((TargetHistory.Result) e).outcome()).isEqualTo(Outcome.TIMEOUT),
                    e -> assertThat(e).isEqualTo(new TargetHistory.StatusChange(AggregatorDriver.EPOCH + 4_000,
                            HealthStatus.HEALTHY, HealthStatus.UNHEALTHY)));

            // a ring of 4 rows, whatever the number of results; the next number rides in the target's own row
            assertThat(rows(store)).isEqualTo(4);
            assertThat(d.driver.<String, StoredTarget>getKeyValueStore(AggregatorTopology.TARGET_STORE).get("web-1")
                    .historyNext()).as("7 entries written, numbered 0 to 6").isEqualTo(7);
            d.at(5).delete("web-1");
            assertThat(HistoryRows.read(store, "web-1", 4)).isNull();
            assertThat(rows(store)).isZero();
        }
    }

    @Test
    void lengthZeroKeepsNothing() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("history.length", "0"))) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100);
            KeyValueStore<Bytes, byte[]> store = d.driver.getKeyValueStore(AggregatorTopology.HISTORY_STORE);
            assertThat(HistoryRows.read(store, "web-1", 0)).isNull();
            assertThat(rows(store)).isZero();
        }
    }

    @Test
    void rowsRoundTripAndAShortenedRingReadsItsNewestEntries() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("history.length", "6"))) {
            KeyValueStore<Bytes, byte[]> store = d.driver.getKeyValueStore(AggregatorTopology.HISTORY_STORE);
            List<TargetHistory.Entry> entries = List.of(
                    new TargetHistory.StatusChange(1, null, HealthStatus.DETECTING),
                    new TargetHistory.Result(2, "eu", Outcome.TIMEOUT, 5, "slow"),
                    new TargetHistory.Result(3, "us", Outcome.SUCCESS, 7, null),
                    new TargetHistory.StatusChange(4, HealthStatus.DETECTING, HealthStatus.HEALTHY),
                    new TargetHistory.Result(5, "eu", Outcome.SUCCESS, 9, null));
            assertThat(HistoryRows.append(store, "a", entries, 6, 0)).isEqualTo(5);
            HistoryRows.append(store, "ab", entries.subList(0, 1), 6, 0); // shares a prefix of bytes, not of rows
            assertThat(HistoryRows.read(store, "a", 6).entries()).isEqualTo(entries);
            HistoryRows.append(store, "a", List.of(new TargetHistory.Result(6, "eu", Outcome.SUCCESS, 1, null)), 2, 5);
            assertThat(HistoryRows.read(store, "a", 2).entries()).extracting(TargetHistory.Entry::atMs)
                    .containsExactly(5L, 6L);
            assertThat(HistoryRows.read(store, "ab", 6).entries()).containsExactly(entries.get(0));
        }
    }

    @Test
    void corruptRowsAreRefusedWithAClearError() {
        byte[] earlier = HistoryRows.encode(3, new TargetHistory.StatusChange(1, null, HealthStatus.DETECTING));
        earlier[0] = 1; // the format version byte
        assertThatThrownBy(() -> HistoryRows.decode(earlier))
                .isInstanceOf(SerializationException.class)
                .hasMessage("target-history row format version: 1 (expected: 2)");
        byte[] row = HistoryRows.encode(3, new TargetHistory.StatusChange(1, null, HealthStatus.DETECTING));
        row[9] = 7; // the entry kind, after the version byte and the sequence number
        assertThatThrownBy(() -> HistoryRows.decode(row))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("entry kind: 7");
        byte[] truncated = java.util.Arrays.copyOf(
                HistoryRows.encode(3, new TargetHistory.Result(2, "eu", Outcome.TIMEOUT, 5, "slow")), 20);
        assertThatThrownBy(() -> HistoryRows.decode(truncated)).isInstanceOf(SerializationException.class);
    }

    @Test
    void aCorruptHistoryRowIsLeftOutAndResultsStillApply() {
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of("history.length", "4"))) {
            d.at(0).define(WEB);
            d.at(1).result(WEB, "default", Outcome.SUCCESS, 100); // entries 0 (DETECTING) and 1
            KeyValueStore<Bytes, byte[]> store = d.driver.getKeyValueStore(AggregatorTopology.HISTORY_STORE);
            KeyValueStore<String, StoredTarget> targets = d.driver.getKeyValueStore(AggregatorTopology.TARGET_STORE);
            store.put(HistoryRows.key("web-1", 3), new byte[] {2, 9});
            assertThat(HistoryRows.read(store, "web-1", 4).entries()).as("readable rows are still read").hasSize(2);
            d.at(2).result(WEB, "default", Outcome.TIMEOUT, 100);
            assertThat(d.metric(AggregatorMetrics.REJECTED, null)).as("the result is applied, not rejected").isZero();
            assertThat(targets.get("web-1").historyNext()).as("the number kept in the target's row").isEqualTo(3);
            assertThat(HistoryRows.read(store, "web-1", 4).entries()).last()
                    .satisfies(e -> assertThat(((TargetHistory.Result) e).outcome()).isEqualTo(Outcome.TIMEOUT));
        }
    }

    private static int rows(KeyValueStore<Bytes, byte[]> store) {
        int n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }
}
