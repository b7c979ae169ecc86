package io.healthmesh.status.feed;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The status feed's rule for probe results it is too late for: a latency point is only charted while it is at
 * most {@code lookback} old, so a result whose record timestamp is older than that is not decoded, and a partition
 * whose newest result read so far is that old is sought forward to the first offset of the lookback window rather
 * than read through. Pure arithmetic on timestamps and offsets; the feed does the Kafka calls.
 */
final class ResultsLookback {

    private final long lookbackMs;

    ResultsLookback(Duration lookback) {
        requireNonNull(lookback, "lookback");
        if (lookback.isNegative() || lookback.isZero()) {
            throw new IllegalArgumentException("lookback: " + lookback + " (expected: positive)");
        }
        this.lookbackMs = lookback.toMillis();
    }

    /** The oldest record timestamp still worth reading at {@code nowMs}. */
    long cutoff(long nowMs) {
        return nowMs - lookbackMs;
    }

    /**
     * True when a result with this record timestamp is older than the lookback at {@code nowMs}. A record without
     * a timestamp (negative) is not judged old: it is read.
     */
    boolean tooOld(long recordTimestampMs, long nowMs) {
        return recordTimestampMs >= 0 && recordTimestampMs < cutoff(nowMs);
    }

    /**
     * Where a partition that is behind should continue: the first offset at or after the cutoff
     * ({@code firstInWindow}, from {@code offsetsForTimes}; {@code null} when no record is that recent, then the
     * end, which must have been read before that lookup), never backwards from {@code position}, the next offset the
     * consumer would read. Timestamps within a partition are not strictly in order (probers' clocks, retries):
     * {@code offsetsForTimes} gives the first offset at or after the cutoff from the start of the log, so a recent
     * record already read keeps the feed where it is, and every offset jumped is older than the cutoff.
     */
    static long seekTarget(long position, Long firstInWindow, long endOffset) {
        long target = firstInWindow != null ? firstInWindow : endOffset;
        return Math.max(position, target);
    }
}
