package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.topology.Decoded;
import io.healthmesh.aggregator.topology.MaintenanceDecoder;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.replay.MaintenanceCheck;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The maintenance windows as recorded, for the self-check's {@link MaintenanceCheck}: the maintenance topic read
 * up to the end of the range with the aggregator's decoder (a record it rejects is left out; a tombstone ends the
 * window), and the window each state event carried.
 */
final class RecordedMaintenance {

    private RecordedMaintenance() {
    }

    /** Every record of {@code topic} up to {@code toMs}; {@code null} when the topic does not exist. */
    static List<MaintenanceCheck.WindowRecord> read(KafkaConsumer<String, byte[]> consumer, String topic,
                                                    Map<String, Object> serdeConfig, long toMs, Duration timeout) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            return null;
        }
        List<MaintenanceCheck.WindowRecord> out = new ArrayList<>();
        try (AvroSerde<Maintenance> serde = AvroSerde.forValues(Maintenance.class, serdeConfig)) {
            MaintenanceDecoder decoder = new MaintenanceDecoder(serde.deserializer());
            TopicRange.of(consumer, topic, Long.MIN_VALUE, toMs, timeout).read(consumer, timeout, r -> {
                if (r.key() == null) {
                    return;
                }
                if (r.value() == null) {
                    out.add(new MaintenanceCheck.WindowRecord(r.timestamp(), r.key(), null));
                    return;
                }
                Decoded<MaintenanceWindow> w = decoder.decode(r.topic(), r.key(), r.value());
                if (!w.isRejected()) {
                    out.add(new MaintenanceCheck.WindowRecord(r.timestamp(), r.key(), w.value()));
                }
            });
        }
        return out;
    }

    /** The window a state event carried. */
    static MaintenanceCheck.Mark mark(String targetId, long offset, TargetHealth health) {
        return new MaintenanceCheck.Mark(targetId, offset, health.getUpdatedAtMs(),
                health.getMaintenance() == null ? null : health.getMaintenance().getId());
    }
}
