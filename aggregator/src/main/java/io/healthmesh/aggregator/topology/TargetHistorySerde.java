package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.healthmesh.aggregator.topology.BinaryFormat.readEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;

/**
 * Serde of the {@code target-history} store: the compact binary format, version 2 (length-prefixed strings, see
 * {@link BinaryFormat}); the store is newer than version 1, so no version-1 record exists.
 */
public final class TargetHistorySerde implements Serde<TargetHistory> {

    static final int VERSION = 2;
    private static final byte RESULT = 1;
    private static final byte STATUS_CHANGE = 2;

    @Override
    public Serializer<TargetHistory> serializer() {
        return (topic, history) -> history == null ? null : BinaryFormat.encode(VERSION, out -> write(out, history));
    }

    @Override
    public Deserializer<TargetHistory> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "target-history", TargetHistorySerde::read);
    }

    private static void write(DataOutputStream out, TargetHistory history) throws IOException {
        out.writeInt(history.entries().size());
        for (TargetHistory.Entry entry : history.entries()) {
            if (entry instanceof TargetHistory.Result r) {
                out.writeByte(RESULT);
                out.writeLong(r.atMs());
                writeString(out, r.region());
                writeString(out, r.outcome().name());
                out.writeLong(r.latencyMicros());
                writeNullableString(out, r.detail());
            } else if (entry instanceof TargetHistory.StatusChange c) {
                out.writeByte(STATUS_CHANGE);
                out.writeLong(c.atMs());
                writeNullableEnum(out, c.from());
                writeString(out, c.to().name());
            }
        }
    }

    private static TargetHistory read(DataInputStream in) throws IOException {
        int count = BinaryFormat.readCount(in);
        List<TargetHistory.Entry> entries = new ArrayList<>(Math.min(count, 10_000));
        for (int i = 0; i < count; i++) {
            byte kind = in.readByte();
            long at = in.readLong();
            if (kind == RESULT) {
                entries.add(new TargetHistory.Result(at, BinaryFormat.readString(in), readEnum(in, Outcome.class), in.readLong(),
                        readNullableString(in)));
            } else if (kind == STATUS_CHANGE) {
                entries.add(new TargetHistory.StatusChange(at, readNullableEnum(in, HealthStatus.class),
                        readEnum(in, HealthStatus.class)));
            } else {
                throw new IOException("entry kind: " + kind + " (expected: 1 or 2)");
            }
        }
        return new TargetHistory(entries);
    }
}
