package io.healthmesh.aggregator.query;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.aggregator.domain.TargetHealthState;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSON shape of a target's state: the overall status with its quorum, the thresholds in force, the last result,
 * and the per-region breakdown (each region's status, its vote, counters, last result, whether it is stale, and how
 * many INCONCLUSIVE results it sent since its last conclusive one, with the last one's detail).
 */
public record TargetView(String targetId, String group, String status, String previousStatus, long sinceMs,
                         boolean stale, String generation, boolean enabled, String quorum, int healthyThreshold,
                         int unhealthyThreshold, int intervalMs, int timeoutMs, LastResultView lastResult,
                         List<RegionView> regions) {

    /** The last result applied. */
    public record LastResultView(String region, String outcome, String detail, long latencyMicros, long startedAtMs) {
    }

    /** One region's view. */
    public record RegionView(String region, String status, String vote, int consecutiveSuccesses,
                             int consecutiveFailures, String lastOutcome, long lastResultAtMs, long lastHeardAtMs,
                             boolean stale, int inconclusiveInARow, String lastInconclusiveDetail) {
    }

    /** The view of a stored state. The generation is a string: 64-bit ids lose precision as JSON numbers. */
    public static TargetView of(TargetHealthState s) {
        List<RegionView> regions = new ArrayList<>();
        for (RegionState r : s.regions().values()) {
            regions.add(new RegionView(r.region(), r.machine().status().name(), r.machine().vote().name(),
                    r.machine().consecutiveSuccesses(), r.machine().consecutiveFailures(), r.lastOutcome().name(),
                    r.lastResultAtMs(), r.lastHeardAtMs(), r.stale(), r.inconclusiveInARow(),
                    r.lastInconclusiveDetail()));
        }
        LastResult last = s.lastResult();
        return new TargetView(s.targetId(), s.spec().group(), s.status().name(),
                s.previousStatus() == null ? null : s.previousStatus().name(), s.sinceMs(), s.stale(),
                Long.toUnsignedString(s.generation(), 16), s.spec().enabled(), s.spec().quorum().toString(),
                s.spec().thresholds().healthy(), s.spec().thresholds().unhealthy(), s.spec().intervalMs(),
                s.spec().timeoutMs(),
                last == null ? null : new LastResultView(last.region(), last.outcome().name(), last.detail(),
                        last.latencyMicros(), last.startedAtMs()),
                regions);
    }
}
