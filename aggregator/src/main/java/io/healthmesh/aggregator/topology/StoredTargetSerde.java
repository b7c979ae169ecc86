package io.healthmesh.aggregator.topology;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of the {@code target-health} store's values: format version 4, a {@link TargetHealthStateSerde} body
 * followed by the history's next sequence number (8 bytes). Internal state, read only by this aggregator (its
 * changelog is not a contract), so it skips the registry: no schema lookup per restore, no subject per changelog
 * topic, about 100 bytes per single-region target.
 */
public final class StoredTargetSerde implements Serde<StoredTarget> {

    static final int VERSION = 4;

    @Override
    public Serializer<StoredTarget> serializer() {
        return (topic, stored) -> stored == null ? null : BinaryFormat.encode(VERSION, out -> {
            TargetHealthStateSerde.write(out, stored.state());
            out.writeLong(stored.historyNext());
        });
    }

    @Override
    public Deserializer<StoredTarget> deserializer() {
        return (topic, data) -> BinaryFormat.decode(data, VERSION, "target-health state", in -> {
            var state = TargetHealthStateSerde.read(in);
            return new StoredTarget(state, in.readLong());
        });
    }
}
