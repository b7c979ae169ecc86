package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Position.PartitionRef;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Which offset of each partition may be committed: the lowest offset still held by an undelivered notification (or
 * a firing still waiting for its minimum duration), else the offset after the last record processed. Committing
 * that offset means every record before it has had its notifications delivered, so a notifier that starts from it
 * loses nothing.
 *
 * <p>Each partition has a floor: the committed offset found when it was assigned, or, for a consumer group that
 * never committed, the end of the partition at that moment. Records below the floor were read only to learn the
 * current state; holds below it (alerts already open when a new group started) block every commit of the partition
 * until they are released, since committing an offset in the middle of that history would make the next run treat
 * old records as new.
 */
public final class CommitLedger {

    private final Map<PartitionRef, Partition> partitions = new HashMap<>();

    private static final class Partition {
        final long floor;
        long next;
        long committed;
        final TreeMap<Long, Integer> holds = new TreeMap<>();

        Partition(long floor, long committed) {
            this.floor = floor;
            this.next = floor;
            this.committed = committed;
        }
    }

    /**
     * Starts tracking a partition whose live records start at {@code floor}.
     *
     * @param committedAlready whether the group has committed {@code floor} (false for a group's first start:
     *                         the floor itself is committed as soon as nothing below it is held)
     */
    public void assign(PartitionRef partition, long floor, boolean committedAlready) {
        partitions.put(requireNonNull(partition, "partition"),
                new Partition(floor, committedAlready ? floor : -1));
    }

    /** Stops tracking a partition (revoked or lost): its holds are forgotten. */
    public void forget(PartitionRef partition) {
        partitions.remove(partition);
    }

    public boolean tracks(PartitionRef partition) {
        return partitions.containsKey(partition);
    }

    /** A record at {@code position} was processed (its notifications, if any, are held). */
    public void processed(Position position) {
        Partition p = partitions.get(position.partitionRef());
        if (p != null && position.offset() + 1 > p.next) {
            p.next = position.offset() + 1;
        }
    }

    /** Something undelivered keeps the record at {@code position} uncommitted. */
    public void hold(Position position) {
        Partition p = partitions.get(position.partitionRef());
        if (p != null) {
            p.holds.merge(position.offset(), 1, Integer::sum);
        }
    }

    /** One hold on {@code position} is gone (delivered, cancelled or dropped). */
    public void release(Position position) {
        Partition p = partitions.get(position.partitionRef());
        if (p != null) {
            p.holds.computeIfPresent(position.offset(), (offset, n) -> n == 1 ? null : n - 1);
        }
    }

    /** Holds on a partition, for metrics and tests. */
    public int holds(PartitionRef partition) {
        Partition p = partitions.get(partition);
        return p == null ? 0 : p.holds.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * The offset to commit now, when it is beyond the last one committed; empty when there is nothing new (or a
     * hold below the floor blocks the partition).
     */
    public OptionalLong toCommit(PartitionRef partition) {
        Partition p = partitions.get(partition);
        if (p == null) {
            return OptionalLong.empty();
        }
        long offset = p.holds.isEmpty() ? p.next : Math.min(p.next, p.holds.firstKey());
        if (offset < p.floor || offset <= p.committed) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(offset);
    }

    /** The offset was committed. */
    public void committed(PartitionRef partition, long offset) {
        Partition p = partitions.get(partition);
        if (p != null && offset > p.committed) {
            p.committed = offset;
        }
    }

    /** The partitions tracked. */
    public java.util.Set<PartitionRef> partitions() {
        return java.util.Set.copyOf(partitions.keySet());
    }
}
