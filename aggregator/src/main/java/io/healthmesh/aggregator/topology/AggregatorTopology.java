package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.topology.AggregatorOutput.HealthEvent;
import io.healthmesh.aggregator.topology.AggregatorOutput.GroupChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.Rejected;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.ResultFieldsDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The aggregator topology, from one factory:
 * <pre>
 * targets + probe-results (bytes, co-partitioned) + groups (policies) -> target-health-processor [store target-health;
 *     results read before their definition wait in unknown-target-results]
 *     -> health-state (TargetHealth, tombstone on delete)
 *     -> rejected (original bytes, reason headers)
 *     -> repartition by group (membership and threshold changes)
 *        -> group-health-processor [stores group-summary, group-members]
 *     -> group-state (GroupHealth, routable list bounded by group.routable.max)
 * maintenance (bytes) -> maintenance-check -> maintenance-accepted | rejected
 * maintenance-accepted -> global store maintenance-windows (every instance; matched when an event is produced)
 * </pre>
 * Inputs are read as bytes and decoded in the processor, so that a bad record reaches the rejected topic with its
 * exact original bytes and processing goes on; a registry outage, in contrast, fails the task so the record is
 * retried. Stores use a compact internal serde ({@link StoredTargetSerde}); the output topics use the Avro
 * contract through {@link AvroSerde}.
 */
public final class AggregatorTopology {

    /** Per-target state store ({@link StoredTarget}: the state and the history's next sequence number). */
    public static final String TARGET_STORE = "target-health";
    /**
     * Per-target recent results and status changes, a ring of {@code history.length} rows per target (layout in
     * {@link HistoryRows}). Named apart from the {@code target-history} store of earlier versions (one value per
     * target): its changelog is not read any more.
     */
    public static final String HISTORY_STORE = "target-history-rows";
    /**
     * Per-group state ({@code group-summary}: group id to {@link io.healthmesh.core.health.GroupState}: counters,
     * panic threshold, fail-open reason).
     */
    public static final String GROUP_STORE = "group-summary";
    /**
     * One row per (group, member), the routable index and the window each group's last event carried
     * ({@code group-members}, layout in {@link GroupRows}).
     */
    public static final String GROUP_MEMBERS_STORE = "group-members";
    /** Per target: its group and labels, and the maintenance window its last event carried ({@link MaintenanceRow}). */
    public static final String TARGET_MAINTENANCE_STORE = "target-maintenance";
    /**
     * Per target with no definition yet: the results read for it, held until the definition is read ({@link
     * HeldResults}, {@link io.healthmesh.aggregator.domain.UnknownTargetHold}).
     */
    public static final String HELD_RESULTS_STORE = "unknown-target-results";
    /** The accepted maintenance windows, a global store (every instance holds all of them). */
    public static final String MAINTENANCE_STORE = "maintenance-windows";
    /** Name of the repartition by group (internal topic {@code <application.id>-group-membership-repartition}). */
    public static final String GROUP_REPARTITION = "group-membership";

    private AggregatorTopology() {
    }

    /** Builds the topology; {@code serdeConfig} configures the Avro serdes (e.g. {@code schema.registry.url}). */
    public static Topology build(AggregatorConfig config, Map<String, ?> serdeConfig) {
        return build(config, serdeConfig, UnaryOperator.identity());
    }

    /** As {@link #build(AggregatorConfig, Map)}, with the definitions' deserializer wrapped (tests inject faults). */
    static Topology build(AggregatorConfig config, Map<String, ?> serdeConfig,
                          UnaryOperator<Deserializer<TargetDefinition>> definitionsWrapper) {
        return build(config, serdeConfig, definitionsWrapper, Stores::persistentKeyValueStore);
    }

    /**
     * As {@link #build(AggregatorConfig, Map)}, with the definitions' deserializer wrapped and the stores supplied by
     * {@code stores} (store name to supplier): tests of huge groups use in-memory stores, because the test driver
     * flushes RocksDB after every record.
     */
    static Topology build(AggregatorConfig config, Map<String, ?> serdeConfig,
                          UnaryOperator<Deserializer<TargetDefinition>> definitionsWrapper,
                          Function<String, KeyValueBytesStoreSupplier> stores) {
        requireNonNull(config, "config");
        requireNonNull(serdeConfig, "serdeConfig");
        Topics topics = config.topics();
        AvroSerde<TargetDefinition> definitions = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
        AvroSerde<TargetHealth> targetHealth = AvroSerde.forValues(TargetHealth.class, serdeConfig);
        AvroSerde<GroupHealth> groupHealth = AvroSerde.forValues(GroupHealth.class, serdeConfig);
        GroupPolicyDecoder groupPolicies = new GroupPolicyDecoder(
                AvroSerde.forValues(GroupPolicy.class, serdeConfig).deserializer());
        InputDecoder decoder = new InputDecoder(definitionsWrapper.apply(definitions.deserializer()),
                ResultFieldsDeserializer.fromConfig(serdeConfig));
        long maxRejectedBytes = RecordSafeHandlers.maxRejectedBytes(config.kafka());

        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(TARGET_STORE),
                Serdes.String(), new StoredTargetSerde()));
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(HISTORY_STORE),
                Serdes.Bytes(), Serdes.ByteArray()));
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(TARGET_MAINTENANCE_STORE),
                Serdes.String(), new MaintenanceRowSerde()));
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(HELD_RESULTS_STORE),
                Serdes.String(), Serdes.ByteArray()));
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(GROUP_STORE),
                Serdes.String(), new GroupStateSerde()));
        builder.addStateStore(Stores.keyValueStoreBuilder(stores.apply(GROUP_MEMBERS_STORE),
                Serdes.Bytes(), Serdes.ByteArray()));
        RoutableList routableList = new RoutableList(config.groupRoutableMax());
        MaintenanceWindows maintenanceWindows = new MaintenanceWindows();
        MaintenanceDecoder maintenanceDecoder = new MaintenanceDecoder(
                AvroSerde.forValues(Maintenance.class, serdeConfig).deserializer());
        EarlyCommits earlyCommits = config.commitOnChange()
                ? new EarlyCommits(true, config.commitInterval()) : EarlyCommits.NEVER;
        CommitPacer pacer = config.commitPaced()
                ? new CommitPacer(true, config.commitInterval(), config.commitPacerTick()) : CommitPacer.OFF;

        Map<String, KStream<byte[], AggregatorOutput>> outputs = builder
                .stream(List.of(topics.targets(), topics.probeResults(), topics.groups()),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("inputs"))
                .process(() -> new TargetHealthProcessor(topics, decoder, groupPolicies, config.staleness(),
                        config.punctuateInterval(), config.trust(), maxRejectedBytes, config.historyLength(),
                        earlyCommits, pacer, maintenanceWindows, config.unknownTargetHold()),
                        Named.as("target-health-processor"), TARGET_STORE, HISTORY_STORE, TARGET_MAINTENANCE_STORE,
                        HELD_RESULTS_STORE)
                .split(Named.as("output-"))
                .branch((key, out) -> out instanceof HealthEvent, Branched.as("health"))
                .branch((key, out) -> out instanceof GroupChange, Branched.as("membership"))
                .defaultBranch(Branched.as("rejected"));

        outputs.get("output-health")
                .mapValues(out -> ((HealthEvent) out).event(), Named.as("health-event"))
                .to(topics.healthState(), Produced.with(Serdes.ByteArray(), targetHealth).withName("health-state-sink"));
        outputs.get("output-rejected")
                .mapValues(out -> ((Rejected) out).value(), Named.as("rejected-bytes"))
                .to(topics.rejected(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("rejected-sink"));
        outputs.get("output-membership")
                .mapValues(out -> (GroupChange) out, Named.as("membership-change"))
                .repartition(Repartitioned.<byte[], GroupChange>as(GROUP_REPARTITION)
                        .withKeySerde(Serdes.ByteArray()).withValueSerde(new MembershipChangeSerde()))
                .process(() -> new GroupHealthProcessor(routableList, earlyCommits, pacer, maintenanceWindows,
                                config.punctuateInterval()),
                        Named.as("group-health-processor"), GROUP_STORE, GROUP_MEMBERS_STORE)
                .to(topics.groupState(), Produced.with(Serdes.ByteArray(), groupHealth).withName("group-state-sink"));
        // added last, so that the sub-topologies above keep their numbers (and their tasks their ids)
        MaintenanceTopology.add(builder, topics, maintenanceDecoder, maintenanceWindows, maxRejectedBytes);
        return builder.build();
    }
}
