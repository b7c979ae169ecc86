package io.healthmesh.prober.assign;

import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The targets this worker probes, by the partition their definition came from, so that a revoked
 * partition's targets can be stopped at once. Decides what a definition means for this prober:
 * enabled and meant for this region -> probed; disabled, for other regions, deleted or invalid -> not.
 * Used by the consumer thread only.
 */
final class OwnedTargets {

    private final String region;
    private final TargetSink sink;
    private final Map<TopicPartition, Set<String>> byPartition = new HashMap<>();
    private int count;

    OwnedTargets(String region, TargetSink sink) {
        this.region = requireNonNull(region, "region");
        this.sink = requireNonNull(sink, "sink");
    }

    /** Applies the latest definition of a key; {@code null} means the key has no probe-able definition. */
    void apply(TopicPartition partition, String targetId, TargetSpec specOrNull) {
        Set<String> ids = byPartition.computeIfAbsent(partition, p -> new HashSet<>());
        if (specOrNull != null && specOrNull.enabled() && specOrNull.probedFrom(region)) {
            if (ids.add(targetId)) {
                count++;
            }
            sink.schedule(specOrNull);
        } else if (ids.remove(targetId)) {
            count--;
            sink.remove(targetId);
        }
    }

    /** Stops every target of these partitions; returns once none of them can start a probe. */
    void release(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            Set<String> ids = byPartition.remove(partition);
            if (ids != null) {
                ids.forEach(sink::remove);
                count -= ids.size();
            }
        }
    }

    /** Stops every target. */
    void releaseAll() {
        release(List.copyOf(byPartition.keySet()));
    }

    int count() {
        return count;
    }
}
