package io.healthmesh.notifier.domain;

import static java.util.Objects.requireNonNull;

/**
 * Where a state event was read: topic, partition and offset. A notification that must be delivered before its
 * record counts as done holds the record's position (see {@link CommitLedger}).
 */
public record Position(String topic, int partition, long offset) {

    public Position {
        requireNonNull(topic, "topic");
    }

    /** The partition of this position, as a value. */
    public PartitionRef partitionRef() {
        return new PartitionRef(topic, partition);
    }

    /** A topic partition, without Kafka's class. */
    public record PartitionRef(String topic, int partition) {
        public PartitionRef {
            requireNonNull(topic, "topic");
        }

        @Override
        public String toString() {
            return topic + "-" + partition;
        }
    }
}
