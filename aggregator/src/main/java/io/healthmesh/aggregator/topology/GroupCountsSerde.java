package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.GroupCounts;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of the {@code group-summary} store (one row per group: its counters), the compact binary format of
 * {@link BinaryFormat}, version 1: members, healthy, unhealthy, detecting, disabled as five {@code int}s.
 */
public final class GroupCountsSerde implements Serde<GroupCounts> {

    static final int VERSION = 1;

    @Override
    public Serializer<GroupCounts> serializer() {
        return (topic, c) -> c == null ? null : BinaryFormat.encode(VERSION, out -> {
            out.writeInt(c.members());
            out.writeInt(c.healthy());
            out.writeInt(c.unhealthy());
            out.writeInt(c.detecting());
            out.writeInt(c.disabled());
        });
    }

    @Override
    public Deserializer<GroupCounts> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "group-summary state",
                in -> new GroupCounts(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readInt()));
    }
}
