package io.healthmesh.aggregator.domain;

/**
 * When results count as gone stale (BEHAVIOUR.md section 6): no result for {@code factor x interval + timeout}
 * (default {@code 3 x interval + timeout}). A stale region stops voting; a stale target keeps its status.
 *
 * @param factor how many intervals without a result are tolerated, 1 to 100
 */
public record StalenessRule(double factor) {

    public static final double DEFAULT_FACTOR = 3.0;
    public static final StalenessRule DEFAULT = new StalenessRule(DEFAULT_FACTOR);

    public StalenessRule {
        if (!(factor >= 1.0 && factor <= 100.0)) {
            throw new IllegalArgumentException("staleness.factor: " + factor + " (expected: 1..100)");
        }
    }

    /** The window in milliseconds for a target probed every {@code intervalMs} with {@code timeoutMs}. */
    public long windowMs(int intervalMs, int timeoutMs) {
        return Math.round(factor * intervalMs) + timeoutMs;
    }

    /**
     * True when nothing was heard since {@code lastHeardMs} for longer than the window.
     *
     * @param notBeforeMs when this aggregator instance started watching: silence before it is not counted, so
     *     that a restart or a rebalance does not mark everything stale before the backlog is read
     */
    public boolean isStale(long nowMs, long lastHeardMs, long notBeforeMs, int intervalMs, int timeoutMs) {
        return nowMs - Math.max(lastHeardMs, notBeforeMs) > windowMs(intervalMs, timeoutMs);
    }
}
