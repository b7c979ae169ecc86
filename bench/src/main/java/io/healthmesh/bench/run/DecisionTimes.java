package io.healthmesh.bench.run;

import java.util.Arrays;
import java.util.BitSet;

/**
 * For a fleet named {@code <prefix>-<n>}: when each target was first probed (the start of its first result) and when
 * its first decided state event (HEALTHY or UNHEALTHY) was received, two {@code long}s per target, so a million
 * targets take 16 MB. {@link #summary} turns them into the figures of "DETECTING -> decided within so many
 * intervals of the first probe". Not thread-safe: {@link DecisionWatch} guards it.
 */
public final class DecisionTimes {

    private static final long NONE = Long.MIN_VALUE;

    /**
     * The figures of one run.
     *
     * @param targets          the fleet
     * @param probed           targets with at least one result
     * @param decided          targets with a decided event (HEALTHY or UNHEALTHY)
     * @param healthy          of those, first decided HEALTHY
     * @param unhealthy        of those, first decided UNHEALTHY
     * @param boundMs          the bound: so many intervals after the first probe
     * @param decidedInBound   targets decided at most {@code boundMs} after their first probe
     * @param probedUndecided  targets probed but not decided (within the run)
     * @param neverProbed      targets without any result (within the run)
     * @param decidedUnprobed  targets decided whose results were not seen (none expected; not in the distribution)
     * @param p50Ms            first probe -> decided, median over the targets with both; -1 when there is none
     * @param p99Ms            the same, 99th percentile (nearest rank)
     * @param maxMs            the same, the slowest
     * @param rejected         records of the fleet's targets the aggregator rejected (e.g. a result read before its
     *                         target's definition)
     * @param rejectedTargets  targets with at least one record rejected
     */
    public record Summary(int targets, int probed, int decided, int healthy, int unhealthy, long boundMs,
                          int decidedInBound, int probedUndecided, int neverProbed, int decidedUnprobed, long p50Ms,
                          long p99Ms, long maxMs, long rejected, int rejectedTargets) {
    }

    private final String prefix;
    private final long[] firstProbeMs;
    private final long[] decidedMs;
    private int probed;
    private int decided;
    private int healthy;
    private int unhealthy;
    private final BitSet rejectedTargets;
    private long rejected;

    DecisionTimes(String prefix, int targets) {
        if (targets < 1) {
            throw new IllegalArgumentException("targets: " + targets + " (expected: at least 1)");
        }
        this.prefix = prefix + "-";
        this.firstProbeMs = new long[targets];
        this.decidedMs = new long[targets];
        Arrays.fill(firstProbeMs, NONE);
        Arrays.fill(decidedMs, NONE);
        this.rejectedTargets = new BitSet(targets);
    }

    /** Counts a record of the target named {@code key} that the aggregator rejected. */
    void rejected(String key) {
        int n = FirstProbeTimes.index(prefix, key, firstProbeMs.length);
        if (n >= 0) {
            rejected++;
            rejectedTargets.set(n);
        }
    }

    /** Counts a result of the target named {@code key} that started at {@code startedAtMs}; the earliest counts. */
    void probe(String key, long startedAtMs) {
        int n = FirstProbeTimes.index(prefix, key, firstProbeMs.length);
        if (n < 0) {
            return;
        }
        if (firstProbeMs[n] == NONE) {
            probed++;
            firstProbeMs[n] = startedAtMs;
        } else {
            firstProbeMs[n] = Math.min(firstProbeMs[n], startedAtMs);
        }
    }

    /**
     * Counts a state event of the target named {@code key}, received at {@code receivedMs}: the first HEALTHY or
     * UNHEALTHY one is the decision; DETECTING, DISABLED and later events are ignored.
     */
    void state(String key, String status, long receivedMs) {
        int n = FirstProbeTimes.index(prefix, key, decidedMs.length);
        if (n < 0 || decidedMs[n] != NONE) {
            return;
        }
        if ("HEALTHY".equals(status)) {
            healthy++;
        } else if ("UNHEALTHY".equals(status)) {
            unhealthy++;
        } else {
            return;
        }
        decided++;
        decidedMs[n] = receivedMs;
    }

    int probed() {
        return probed;
    }

    int decided() {
        return decided;
    }

    /** The figures with a bound of {@code intervals} intervals of {@code intervalMs} after each first probe. */
    Summary summary(long intervalMs, int intervals) {
        if (intervalMs < 1 || intervals < 1) {
            throw new IllegalArgumentException("interval " + intervalMs + " ms, " + intervals
                    + " intervals (expected: at least 1 each)");
        }
        long bound = intervalMs * intervals;
        long[] delays = new long[firstProbeMs.length];
        int both = 0;
        int inBound = 0;
        int decidedUnprobed = 0;
        for (int n = 0; n < firstProbeMs.length; n++) {
            if (decidedMs[n] == NONE) {
                continue;
            }
            if (firstProbeMs[n] == NONE) {
                decidedUnprobed++;
                continue;
            }
            long delay = decidedMs[n] - firstProbeMs[n];
            delays[both++] = delay;
            if (delay <= bound) {
                inBound++;
            }
        }
        Arrays.sort(delays, 0, both);
        return new Summary(firstProbeMs.length, probed, decided, healthy, unhealthy, bound, inBound,
                probed - (decided - decidedUnprobed), firstProbeMs.length - probed, decidedUnprobed,
                rank(delays, both, 0.5), rank(delays, both, 0.99), both == 0 ? -1 : delays[both - 1], rejected,
                rejectedTargets.cardinality());
    }

    /** The nearest-rank {@code share} percentile of the first {@code count} sorted values; -1 when there is none. */
    private static long rank(long[] sorted, int count, double share) {
        return count == 0 ? -1 : sorted[(int) Math.ceil(share * count) - 1];
    }
}
