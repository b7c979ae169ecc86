package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.FailOpenReason;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.PanicThreshold;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.DataInputStream;
import java.io.IOException;

import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;

/**
 * Serde of the {@code group-summary} store (one row per group), the compact binary format of {@link BinaryFormat},
 * version 2: the counters (members, healthy, unhealthy, detecting, disabled as five {@code int}s), the panic
 * threshold (percent and count, each {@code -1} when absent, then the two margins) and the fail-open reason. A row of
 * version 1 (the counters alone, written before groups had thresholds) reads as a group without threshold, so a
 * store restored from an older changelog keeps working.
 */
public final class GroupStateSerde implements Serde<GroupState> {

    static final int VERSION = 2;
    static final int COUNTS_ONLY_VERSION = 1;
    private static final String WHAT = "group-summary state";

    @Override
    public Serializer<GroupState> serializer() {
        return (topic, s) -> s == null ? null : BinaryFormat.encode(VERSION, out -> {
            GroupCounts c = s.counts();
            out.writeInt(c.members());
            out.writeInt(c.healthy());
            out.writeInt(c.unhealthy());
            out.writeInt(c.detecting());
            out.writeInt(c.disabled());
            MembershipChangeSerde.writeThreshold(out, s.threshold());
            writeNullableEnum(out, s.failOpenReason());
        });
    }

    @Override
    public Deserializer<GroupState> deserializer() {
        return (topic, data) -> {
            if (data != null && data.length > 0 && (data[0] & 0xff) == COUNTS_ONLY_VERSION) {
                return BinaryFormat.decode(data, COUNTS_ONLY_VERSION, WHAT,
                        in -> GroupState.of(counts(in), PanicThreshold.NONE));
            }
            return BinaryFormat.decode(data, VERSION, WHAT, in -> {
                GroupCounts counts = counts(in);
                PanicThreshold threshold = MembershipChangeSerde.readThreshold(in);
                return new GroupState(counts, threshold, readNullableEnum(in, FailOpenReason.class));
            });
        };
    }

    private static GroupCounts counts(DataInputStream in) throws IOException {
        return new GroupCounts(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readInt());
    }
}
