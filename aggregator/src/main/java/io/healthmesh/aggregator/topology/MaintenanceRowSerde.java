package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceMode;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serde of the {@code target-maintenance} store's rows ({@link MaintenanceRow}), format version 1: the group, the
 * labels (count, then key and value), then the window the last event carried (a flag, id, mode, start, end).
 * Internal state in {@link BinaryFormat}, like the other stores.
 */
final class MaintenanceRowSerde implements Serde<MaintenanceRow> {

    static final int VERSION = 1;

    @Override
    public Serializer<MaintenanceRow> serializer() {
        return (topic, row) -> row == null ? null : BinaryFormat.encode(VERSION, out -> {
            BinaryFormat.writeString(out, row.group());
            Map<String, String> labels = new TreeMap<>(row.labels());
            out.writeInt(labels.size());
            for (Map.Entry<String, String> e : labels.entrySet()) {
                BinaryFormat.writeString(out, e.getKey());
                BinaryFormat.writeString(out, e.getValue());
            }
            MaintenanceRow.Emitted emitted = row.emitted();
            out.writeBoolean(emitted != null);
            if (emitted != null) {
                BinaryFormat.writeString(out, emitted.id());
                BinaryFormat.writeString(out, emitted.mode().name());
                out.writeLong(emitted.startMs());
                out.writeLong(emitted.untilMs());
            }
        });
    }

    @Override
    public Deserializer<MaintenanceRow> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "target-maintenance row", in -> {
            String group = BinaryFormat.readString(in);
            int count = BinaryFormat.readCount(in);
            Map<String, String> labels = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                labels.put(BinaryFormat.readString(in), BinaryFormat.readString(in));
            }
            MaintenanceRow.Emitted emitted = null;
            if (in.readBoolean()) {
                emitted = new MaintenanceRow.Emitted(BinaryFormat.readString(in),
                        BinaryFormat.readEnum(in, MaintenanceMode.class), in.readLong(), in.readLong());
            }
            return new MaintenanceRow(group, labels, emitted);
        });
    }
}
