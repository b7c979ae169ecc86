package io.healthmesh.bench.run;

import java.util.Arrays;

/**
 * For a fleet named {@code <prefix>-<n>}: the start of each target's first probe at or after an instant (a round),
 * one {@code long} per target, so a million targets take 8 MB. Not thread-safe: {@link FirstProbes} guards it.
 */
final class FirstProbeTimes {

    private static final long NEVER = Long.MAX_VALUE;

    private final String prefix;
    private final long[] firstStartMs;
    private int probed;
    private long sinceMs;

    FirstProbeTimes(String prefix, int targets, long sinceMs) {
        if (targets < 1) {
            throw new IllegalArgumentException("targets: " + targets + " (expected: at least 1)");
        }
        this.prefix = prefix + "-";
        this.firstStartMs = new long[targets];
        since(sinceMs);
    }

    /** Starts a new round: only probes started at or after {@code instantMs} count from now on. */
    void since(long instantMs) {
        Arrays.fill(firstStartMs, NEVER);
        probed = 0;
        sinceMs = instantMs;
    }

    /** Counts one probe of the target named {@code key} (other keys and probes before the round are ignored). */
    void probe(String key, long startedAtMs) {
        int n = index(key);
        if (n < 0 || startedAtMs < sinceMs) {
            return;
        }
        if (firstStartMs[n] == NEVER) {
            probed++;
        }
        firstStartMs[n] = Math.min(firstStartMs[n], startedAtMs);
    }

    /** Targets probed in this round. */
    int probed() {
        return probed;
    }

    /**
     * Milliseconds from the round's instant to the first probe by which the given share of the targets (0 to 1, e.g.
     * 0.5 and 1.0) had been probed, or -1 when fewer have been probed.
     */
    long millisToProbe(double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share: " + share + " (expected: above 0, at most 1)");
        }
        long[] sorted = firstStartMs.clone();
        Arrays.sort(sorted);
        int at = (int) Math.ceil(share * sorted.length) - 1;
        return sorted[at] == NEVER ? -1 : sorted[at] - sinceMs;
    }

    /** The index of {@code <prefix>-<n>} within the fleet, or -1 for any other key. */
    int index(String key) {
        return index(prefix, key, firstStartMs.length);
    }

    /**
     * The index of {@code key} within a fleet of {@code size} targets named {@code <dashedPrefix><n>} (the prefix
     * with its dash, e.g. {@code "p-"}), or -1 for any other key.
     */
    static int index(String dashedPrefix, String key, int size) {
        if (key == null || !key.startsWith(dashedPrefix) || key.length() == dashedPrefix.length()) {
            return -1;
        }
        try {
            int n = Integer.parseInt(key, dashedPrefix.length(), key.length(), 10);
            return n >= 0 && n < size ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
