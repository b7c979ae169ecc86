package io.healthmesh.aggregator.domain;

import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The part of a target definition the aggregator needs: identity and group, whether checking is on, the
 * thresholds, the timing (for staleness), the regions and quorum, and the generation. Stored with each target's
 * state instead of the whole definition, which stays in the config topic.
 *
 * @param intervalMs the longest a region's prober may wait between two probes of the target: the definition's
 *                   {@code intervalMs}, or its {@code fastIntervalMs} or {@code downIntervalMs} when longer
 *                   ({@link TargetSpec#longestIntervalMs()}), so that a region probing a down target at its down
 *                   interval is not stale for it
 * @param regions regions that probe the target; empty means every region
 * @param generation {@link ProbeFingerprint} of the probe parameters
 */
public record TargetEssentials(String id, String group, boolean enabled, Thresholds thresholds, int intervalMs,
                               int timeoutMs, List<String> regions, QuorumRule quorum, long generation) {

    public TargetEssentials {
        requireNonNull(id, "id");
        requireNonNull(group, "group");
        requireNonNull(thresholds, "thresholds");
        requireNonNull(quorum, "quorum");
        regions = List.copyOf(requireNonNull(regions, "regions"));
        if (intervalMs < 1) {
            throw new IllegalArgumentException("intervalMs: " + intervalMs + " (expected: 1 or more)");
        }
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeoutMs: " + timeoutMs + " (expected: 0 or more)");
        }
    }

    /** The essentials of a (validated) spec, with its generation computed. */
    public static TargetEssentials of(TargetSpec spec) {
        requireNonNull(spec, "spec");
        return new TargetEssentials(spec.id(), spec.group(), spec.enabled(),
                new Thresholds(spec.healthyThreshold(), spec.unhealthyThreshold()), spec.longestIntervalMs(),
                spec.timeoutMs(),
                spec.regions(), new QuorumRule(spec.quorum(), spec.quorumAtLeast()), ProbeFingerprint.of(spec));
    }

    /** True when results from {@code region} count for this target. */
    public boolean listsRegion(String region) {
        return regions.isEmpty() || regions.contains(region);
    }
}
