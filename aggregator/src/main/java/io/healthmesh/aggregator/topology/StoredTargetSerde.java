package io.healthmesh.aggregator.topology;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of the {@code target-health} store's values: format version 4, a {@link TargetHealthStateSerde} body
 * followed by the history's next sequence number (8 bytes). Rows of versions 1 to 3, written before the number was
 * kept here, read with {@link StoredTarget#UNKNOWN}: their history head row is read on the next append, once.
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
            long next = BinaryFormat.version(in) >= VERSION ? in.readLong() : StoredTarget.UNKNOWN;
            return new StoredTarget(state, next);
        });
    }
}
