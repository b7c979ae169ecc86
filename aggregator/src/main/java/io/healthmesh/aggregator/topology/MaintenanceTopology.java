package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

import java.util.Map;

/**
 * The maintenance part of the topology:
 * <pre>
 * maintenance (bytes, users write it) -> maintenance-check -> maintenance-accepted (valid windows, tombstones)
 *                                                          -> rejected (original bytes, reason headers)
 * maintenance-accepted -> global store maintenance-windows -> MaintenanceWindows (read by every target task)
 * </pre>
 * Why two topics: Kafka Streams lets a topic feed either a global store or a stream, not both, and a global store's
 * processor cannot forward; the check is a stream task, so a bad record reaches the rejected topic exactly once and
 * in the same transaction as its neighbours' acceptance, and the global store only ever reads valid windows.
 */
final class MaintenanceTopology {

    private MaintenanceTopology() {
    }

    static void add(StreamsBuilder builder, Topics topics, MaintenanceDecoder decoder, MaintenanceWindows windows,
                    long maxRejectedBytes) {
        Map<String, KStream<byte[], MaintenanceCheckProcessor.Output>> checked = builder
                .stream(topics.maintenance(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("maintenance-input"))
                .process(() -> new MaintenanceCheckProcessor(decoder, maxRejectedBytes), Named.as("maintenance-check"))
                .split(Named.as("maintenance-"))
                .branch((key, out) -> out.accepted(), Branched.as("accepted"))
                .defaultBranch(Branched.as("rejected"));
        checked.get("maintenance-accepted")
                .mapValues(MaintenanceCheckProcessor.Output::value, Named.as("maintenance-accepted-bytes"))
                .to(topics.maintenanceAccepted(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("maintenance-accepted-sink"));
        checked.get("maintenance-rejected")
                .mapValues(MaintenanceCheckProcessor.Output::value, Named.as("maintenance-rejected-bytes"))
                .to(topics.rejected(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("maintenance-rejected-sink"));
        builder.addGlobalStore(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(AggregatorTopology.MAINTENANCE_STORE), Serdes.String(),
                        Serdes.ByteArray()).withLoggingDisabled(),
                topics.maintenanceAccepted(),
                Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("maintenance-accepted-source"),
                () -> new MaintenanceStoreUpdater(windows, decoder, topics.maintenanceAccepted()));
    }
}
