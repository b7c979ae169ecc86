package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.Maintenance;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;

import java.nio.file.Path;
import java.time.Instant;

/**
 * What the maintenance tests of the target task ({@code MaintenanceEventsTest}) and of the group task
 * ({@code GroupMaintenanceEventsTest}) share: a topology on a fake wall clock, three targets probed so rarely that no
 * staleness event falls inside a scenario (so every event seen is maintenance's or a result's), results three at a
 * time, and windows written in seconds since the scenario's start.
 */
final class MaintenanceScenario implements AutoCloseable {

    /** Probed every 10 minutes: no staleness event falls inside a scenario. */
    static final TargetSpec A = slow("a", "web");
    static final TargetSpec B = slow("b", "web");
    static final TargetSpec C = slow("c", "db");

    final AggregatorDriver d;
    private final AvroSerde<Maintenance> serde;
    private final TestInputTopic<String, Maintenance> maintenance;
    /** Seconds since the scenario's start of the last results written by {@link #three}. */
    double second;

    MaintenanceScenario(Path stateDir) {
        d = new AggregatorDriver(stateDir);
        serde = AvroSerde.forValues(Maintenance.class, d.serdeConfig);
        maintenance = d.driver.createInputTopic(d.config.topics().maintenance(), new StringSerializer(),
                serde.serializer());
    }

    static TargetSpec slow(String id, String group) {
        return TargetSpec.of(id, group, "10.0.0.1", 80, Protocol.TCP).withTiming(600_000, 2_000);
    }

    /** The instant {@code secondsSinceStart} after the scenario's start. */
    static long ms(double secondsSinceStart) {
        return AggregatorDriver.EPOCH + Math.round(secondsSinceStart * 1000);
    }

    /** Three results of {@code outcome} for each of {@code specs}, one second apart. */
    void three(Outcome outcome, TargetSpec... specs) {
        for (int i = 0; i < 3; i++) {
            second += 1;
            for (TargetSpec spec : specs) {
                d.at(second).result(spec, "default", outcome, 100);
            }
        }
    }

    /** Writes a window from {@code fromS} to {@code toS} seconds since the scenario's start. */
    void window(String id, MaintenanceSelector selector, MaintenanceMode mode, double fromS, double toS) {
        MaintenanceWindow w = new MaintenanceWindow(id, selector, mode, ms(fromS), ms(toS), "planned work",
                d.now(), "test");
        pipe(id, MaintenanceRecords.toAvro(w));
    }

    /** Writes {@code record} ({@code null}: a tombstone) under {@code id} now. */
    void pipe(String id, Maintenance record) {
        maintenance.pipeInput(id, record, Instant.ofEpochMilli(d.now()));
    }

    @Override
    public void close() {
        serde.close();
        d.close();
    }
}
