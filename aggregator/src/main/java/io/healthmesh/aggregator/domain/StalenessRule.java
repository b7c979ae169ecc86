package io.healthmesh.aggregator.domain;

/**
 * When results count as gone stale (BEHAVIOUR.md section 6): no result for {@code factor x interval + timeout}
 * (default {@code 3 x interval + timeout}). A stale region stops voting; a stale target keeps its status.
 *
 * <p>The times compared here are those of the clock the silence is judged by: in the aggregator, its task's
 * {@link ReadClock} (how far into the present it has read its input, the wall clock once it has caught up); in
 * replay, the recorded timestamps, which is what that clock reads for an aggregator that reads each record as it
 * is written. Both call this rule through {@link TargetHealthState#checkStaleness}.
 *
 * @param factor how many intervals without a result are tolerated, 1 to 100
 * @param maxBehindMs how far behind the wall clock an aggregator's {@link ReadClock} may stay while it catches up
 *     on a backlog; beyond it silence is judged on the wall clock again; 0: always the wall clock
 */
public record StalenessRule(double factor, long maxBehindMs) {

    public static final double DEFAULT_FACTOR = 3.0;
    /** Half an hour: covers the catch-up of a restart after a long downtime or of a first start at scale. */
    public static final long DEFAULT_MAX_BEHIND_MS = 1_800_000;
    /** Upper end of {@code staleness.max.behind.ms}: a day. */
    public static final long MAX_MAX_BEHIND_MS = 86_400_000;
    public static final StalenessRule DEFAULT = new StalenessRule(DEFAULT_FACTOR);

    public StalenessRule {
        if (!(factor >= 1.0 && factor <= 100.0)) {
            throw new IllegalArgumentException("staleness.factor: " + factor + " (expected: 1..100)");
        }
        if (maxBehindMs < 0 || maxBehindMs > MAX_MAX_BEHIND_MS) {
            throw new IllegalArgumentException("staleness.max.behind.ms: " + maxBehindMs + " (expected: 0.."
                    + MAX_MAX_BEHIND_MS + ")");
        }
    }

    /** The rule with {@code factor} and the default {@link #maxBehindMs}. */
    public StalenessRule(double factor) {
        this(factor, DEFAULT_MAX_BEHIND_MS);
    }

    /** The window in milliseconds for a target probed every {@code intervalMs} with {@code timeoutMs}. */
    public long windowMs(int intervalMs, int timeoutMs) {
        return Math.round(factor * intervalMs) + timeoutMs;
    }

    /**
     * True when nothing was heard since {@code lastHeardMs} for longer than the window, all three times read from
     * the clock silence is judged by (see above).
     *
     * @param notBeforeMs when this aggregator instance started watching: silence before it is not counted, so
     *     that a restart or a rebalance does not mark everything stale before the backlog is read
     */
    public boolean isStale(long nowMs, long lastHeardMs, long notBeforeMs, int intervalMs, int timeoutMs) {
        return nowMs - Math.max(lastHeardMs, notBeforeMs) > windowMs(intervalMs, timeoutMs);
    }
}
