package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group window over more targets than one pass compares: the first pass compares
 * {@link MaintenanceTracker#MAX_ROWS_PER_PASS} rows, the walk goes on at the drain interval, and every covered target
 * gets exactly one event; none outside.
 */
class MaintenanceWalkTest {

    @TempDir
    Path stateDir;

    @Test
    void aWindowOverMoreTargetsThanOnePassReachesEachOnceInBoundedPasses() {
        int covered = MaintenanceTracker.MAX_ROWS_PER_PASS + 1_500;
        try (AggregatorDriver d = new AggregatorDriver(stateDir, Map.of(), UnaryOperator.identity(),
                Stores::inMemoryKeyValueStore);
             AvroSerde<Maintenance> serde = AvroSerde.forValues(Maintenance.class, d.serdeConfig)) {
            d.at(0);
            for (int i = 0; i < covered; i++) {
                d.define(TargetSpec.of("w" + i, "big", "10.1.0.1", 80, Protocol.TCP).withTiming(600_000, 2_000));
            }
            for (int i = 0; i < 100; i++) {
                d.define(TargetSpec.of("o" + i, "other", "10.2.0.1", 80, Protocol.TCP).withTiming(600_000, 2_000));
            }
            d.healthEvents();
            long start = AggregatorDriver.EPOCH + 10_000;
            MaintenanceWindow w = new MaintenanceWindow("big-drain", MaintenanceSelector.group("big"),
                    MaintenanceMode.DRAIN, start, start + 600_000, "rack move", d.now(), null);
            d.driver.createInputTopic(d.config.topics().maintenance(), new StringSerializer(), serde.serializer())
                    .pipeInput(w.id(), MaintenanceRecords.toAvro(w), Instant.ofEpochMilli(d.now()));

            d.at(10);
            // a pass compares at most MAX_ROWS_PER_PASS rows in key order: the 100 "o" targets come first
            List<TestRecord<String, TargetHealth>> firstPass = d.healthEvents();
            assertThat(firstPass).hasSize(MaintenanceTracker.MAX_ROWS_PER_PASS - 100);
            d.at(10.01);
            List<TestRecord<String, TargetHealth>> secondPass = d.healthEvents();
            assertThat(secondPass).hasSize(covered - firstPass.size());

            Set<String> ids = new java.util.HashSet<>();
            for (TestRecord<String, TargetHealth> r : firstPass) {
                ids.add(r.key());
            }
            secondPass.forEach(r -> ids.add(r.key()));
            assertThat(ids).hasSize(covered).allMatch(id -> id.startsWith("w"));
            assertThat(firstPass.stream().map(r -> r.value().getMaintenance().getId()).collect(Collectors.toSet()))
                    .containsExactly("big-drain");
            d.at(20);
            assertThat(d.healthEvents()).as("nothing more until the window ends").isEmpty();
        }
    }
}
