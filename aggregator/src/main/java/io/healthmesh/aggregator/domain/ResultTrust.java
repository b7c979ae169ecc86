package io.healthmesh.aggregator.domain;

/**
 * Which probe results the aggregator believes, and how long it remembers a silent region (BEHAVIOUR.md section 9). A result
 * that started more than {@code maxFutureSkewMs} ahead of the aggregator's clock would, once applied, make every
 * honest result of its region look out of order until that future time; a result from a region the target does not
 * list comes from a prober that should not probe it. Both are refused, not applied. A region that stayed silent
 * (and stale) for {@code regionEvictionMs} is forgotten, so a target that lists no regions cannot collect states for
 * every region name ever seen.
 *
 * @param maxFutureSkewMs how far ahead of the aggregator's clock a probe may have started, 0 or more
 * @param regionEvictionMs how long a stale region is kept before it is forgotten, 1 or more
 */
public record ResultTrust(long maxFutureSkewMs, long regionEvictionMs) {

    public static final long DEFAULT_MAX_FUTURE_SKEW_MS = 300_000;
    public static final long DEFAULT_REGION_EVICTION_MS = 3_600_000;
    public static final ResultTrust DEFAULT = new ResultTrust(DEFAULT_MAX_FUTURE_SKEW_MS, DEFAULT_REGION_EVICTION_MS);

    /** Why a result is not trusted. */
    public enum Distrust {
        /** It started further ahead of the aggregator's clock than the skew allows. */
        FUTURE_RESULT,
        /** The target lists its regions and this one is not among them. */
        UNLISTED_REGION
    }

    public ResultTrust {
        if (maxFutureSkewMs < 0) {
            throw new IllegalArgumentException("result.max.future.skew.ms: " + maxFutureSkewMs
                    + " (expected: 0 or more)");
        }
        if (regionEvictionMs < 1) {
            throw new IllegalArgumentException("region.eviction.ms: " + regionEvictionMs + " (expected: 1 or more)");
        }
    }

    /** Why {@code result} is refused for {@code spec} at aggregator time {@code nowMs}, or {@code null}. */
    public Distrust check(TargetEssentials spec, ProbeObservation result, long nowMs) {
        if (result.startedAtMs() > nowMs && aheadMs(result.startedAtMs(), nowMs) > maxFutureSkewMs) {
            return Distrust.FUTURE_RESULT;
        }
        if (!spec.listsRegion(result.region())) {
            return Distrust.UNLISTED_REGION;
        }
        return null;
    }

    /** How far {@code startedAtMs} is ahead of {@code nowMs}; saturates instead of overflowing. */
    private static long aheadMs(long startedAtMs, long nowMs) {
        try {
            return Math.subtractExact(startedAtMs, nowMs);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * True when a stale region last heard at {@code lastHeardAtMs} is to be forgotten at {@code nowMs}.
     *
     * @param notBeforeMs when this aggregator instance started watching: silence before it does not count
     */
    public boolean evicts(long nowMs, long lastHeardAtMs, long notBeforeMs) {
        return nowMs - Math.max(lastHeardAtMs, notBeforeMs) > regionEvictionMs;
    }
}
