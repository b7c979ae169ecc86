package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.topology.AggregatorOutput.GroupChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.aggregator.topology.AggregatorOutput.ThresholdChange;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;

/**
 * Serde of the group repartition topic. A membership change is format version 2: target id and status (absent when
 * the target leaves). A threshold change has its own leading byte, {@value #THRESHOLD_FORMAT}: percent and count
 * ({@code -1} when absent) and the two margins. The membership format is unchanged, so records written before
 * thresholds existed still read.
 */
final class MembershipChangeSerde implements Serde<GroupChange> {

    static final int VERSION = 2;
    static final int THRESHOLD_FORMAT = 64;

    @Override
    public Serializer<GroupChange> serializer() {
        return (topic, change) -> {
            if (change == null) {
                return null;
            }
            if (change instanceof ThresholdChange t) {
                return BinaryFormat.encode(THRESHOLD_FORMAT, out -> writeThreshold(out, t.threshold()));
            }
            MembershipChange m = (MembershipChange) change;
            return BinaryFormat.encode(VERSION, out -> {
                writeString(out, m.targetId());
                writeNullableEnum(out, m.status());
            });
        };
    }

    @Override
    public Deserializer<GroupChange> deserializer() {
        return (topic, data) -> {
            if (data != null && data.length > 0 && (data[0] & 0xff) == THRESHOLD_FORMAT) {
                return BinaryFormat.decode(data, THRESHOLD_FORMAT, "threshold change",
                        in -> new ThresholdChange(readThreshold(in)));
            }
            return BinaryFormat.decode(data, VERSION, "membership change",
                    in -> new MembershipChange(readString(in), readNullableEnum(in, HealthStatus.class)));
        };
    }

    /** A threshold as four {@code int}s: percent and count ({@code -1} when absent), then the two margins. */
    static void writeThreshold(DataOutputStream out, PanicThreshold t) throws IOException {
        out.writeInt(t.minHealthyPercent() == null ? -1 : t.minHealthyPercent());
        out.writeInt(t.minHealthyCount() == null ? -1 : t.minHealthyCount());
        out.writeInt(t.leaveMarginPercent());
        out.writeInt(t.leaveMarginCount());
    }

    /** Reads what {@link #writeThreshold} wrote. */
    static PanicThreshold readThreshold(DataInputStream in) throws IOException {
        int percent = in.readInt();
        int count = in.readInt();
        int marginPercent = in.readInt();
        int marginCount = in.readInt();
        return percent < 0 && count < 0 ? PanicThreshold.NONE : new PanicThreshold(percent < 0 ? null : percent,
                count < 0 ? null : count, marginPercent, marginCount);
    }
}
