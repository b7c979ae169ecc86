package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.GroupMembers;
import io.healthmesh.core.health.HealthStatus;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import static io.healthmesh.aggregator.topology.BinaryFormat.readString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;
import static io.healthmesh.aggregator.topology.BinaryFormat.readCount;
import static io.healthmesh.aggregator.topology.BinaryFormat.readEnum;

/** Serde of the {@code group-health} store: the compact binary format, version 1 (see {@link TargetHealthStateSerde}). */
public final class GroupMembersSerde implements Serde<GroupMembers> {

    static final int VERSION = 2;

    @Override
    public Serializer<GroupMembers> serializer() {
        return (topic, group) -> group == null ? null : BinaryFormat.encode(VERSION, out -> write(out, group));
    }

    @Override
    public Deserializer<GroupMembers> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "group-health state", GroupMembersSerde::read);
    }

    private static void write(DataOutputStream out, GroupMembers group) throws IOException {
        writeString(out, group.groupId());
        out.writeInt(group.members().size());
        for (Map.Entry<String, HealthStatus> member : group.members().entrySet()) {
            writeString(out, member.getKey());
            writeString(out, member.getValue().name());
        }
    }

    private static GroupMembers read(DataInputStream in) throws IOException {
        String groupId = readString(in);
        int count = readCount(in);
        TreeMap<String, HealthStatus> members = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            members.put(readString(in), readEnum(in, HealthStatus.class));
        }
        return new GroupMembers(groupId, members);
    }
}
