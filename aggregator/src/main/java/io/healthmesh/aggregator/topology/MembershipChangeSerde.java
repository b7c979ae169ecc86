package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.topology.AggregatorOutput.MembershipChange;
import io.healthmesh.core.health.HealthStatus;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import static io.healthmesh.aggregator.topology.BinaryFormat.readString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;

/** Serde of the group repartition topic: target id and status (absent when the target leaves), version 1. */
final class MembershipChangeSerde implements Serde<MembershipChange> {

    static final int VERSION = 2;

    @Override
    public Serializer<MembershipChange> serializer() {
        return (topic, change) -> change == null ? null : BinaryFormat.encode(VERSION, out -> {
            writeString(out, change.targetId());
            writeNullableEnum(out, change.status());
        });
    }

    @Override
    public Deserializer<MembershipChange> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "membership change",
                in -> new MembershipChange(readString(in), readNullableEnum(in, HealthStatus.class)));
    }
}
