package io.healthmesh.aggregator.domain;

/**
 * The clock one aggregator task judges silence by (BEHAVIOUR.md section 6): how far into the present the task has
 * read its input, rather than the wall clock. Silence is only evidence once the results that could have broken it
 * have been read; an aggregator catching up on a backlog (a first start, a restart after downtime, a stall) would
 * otherwise mark targets stale whose results are merely unread in its own input, and fresh again once it reads them.
 *
 * <p>How the clock moves (it never moves back and never passes the wall clock):
 * <ul>
 *   <li>It starts at the task's start: input older than that (a backlog) holds it there, so nothing goes stale
 *       while the task reads what was written before it started, as before this clock existed.</li>
 *   <li>Each record the task reads (a result, a definition, a group policy) moves it to the record's timestamp if
 *       that is later: while the task reads a backlog, silence is counted in the time of the records it reads.</li>
 *   <li>A punctuation moves it on by the wall-clock time since the task last read a record (or since the previous
 *       punctuation, if that is later), at most {@code maxIdleStepMs}: a task with nothing to read (a quiet
 *       partition: every prober gone) is caught up, and silence counts as on the wall clock. A task reading a backlog
 *       reads right up to each punctuation, so it gains nothing there. The step is bounded because a punctuation that
 *       follows a stall of the whole process can come before the records written during the stall were polled; the
 *       stall itself is not counted as silence.</li>
 *   <li>It is never further behind the wall clock than {@code maxBehindMs} ({@link StalenessRule#maxBehindMs}):
 *       a task further behind than that judges on the wall clock again (0: always the wall clock). This bounds how
 *       long a prober whose clock runs behind the aggregator's can hold staleness off: its records' timestamps do
 *       not move the clock while they are older than the task's start.</li>
 * </ul>
 *
 * <p>Times read from this clock (when a result was heard, when a target started being watched) are compared only
 * with each other. Not thread-safe: it belongs to one task's processor.
 */
public final class ReadClock {

    private final long startedAtMs;
    private final long maxIdleStepMs;
    private final long maxBehindMs;
    private long nowMs;
    private long lastTickMs;
    private long lastReadMs;

    /**
     * @param startedAtMs wall-clock time at which the task started
     * @param maxIdleStepMs most a punctuation with nothing read since the previous one moves the clock, 1 or more
     * @param maxBehindMs most the clock stays behind the wall clock, 0 or more
     */
    public ReadClock(long startedAtMs, long maxIdleStepMs, long maxBehindMs) {
        if (maxIdleStepMs < 1) {
            throw new IllegalArgumentException("maxIdleStepMs: " + maxIdleStepMs + " (expected: 1 or more)");
        }
        if (maxBehindMs < 0) {
            throw new IllegalArgumentException("maxBehindMs: " + maxBehindMs + " (expected: 0 or more)");
        }
        this.startedAtMs = startedAtMs;
        this.maxIdleStepMs = maxIdleStepMs;
        this.maxBehindMs = maxBehindMs;
        this.nowMs = startedAtMs;
        this.lastTickMs = startedAtMs;
        this.lastReadMs = startedAtMs;
    }

    /** When the task started (wall clock): silence before it does not count. */
    public long startedAtMs() {
        return startedAtMs;
    }

    /** The clock now, as last moved by {@link #read} or {@link #tick}. */
    public long nowMs() {
        return nowMs;
    }

    /** The task read a record stamped {@code timestampMs} at wall-clock time {@code wallMs}. */
    public void read(long timestampMs, long wallMs) {
        lastReadMs = Math.max(lastReadMs, wallMs);
        advanceTo(Math.min(timestampMs, wallMs));
        notBehindFloor(wallMs);
    }

    /** A punctuation at wall-clock time {@code wallMs}; returns the clock. */
    public long tick(long wallMs) {
        long idle = Math.max(0, wallMs - Math.max(lastTickMs, lastReadMs));
        advanceTo(Math.min(wallMs, saturatedAdd(nowMs, Math.min(idle, maxIdleStepMs))));
        notBehindFloor(wallMs);
        lastTickMs = Math.max(lastTickMs, wallMs);
        return nowMs;
    }

    /** How far this clock is behind the wall clock at {@code wallMs}, 0 when it is not. */
    public long behindMs(long wallMs) {
        return Math.max(0, wallMs - nowMs);
    }

    private void notBehindFloor(long wallMs) {
        if (wallMs - maxBehindMs > nowMs) {
            nowMs = wallMs - maxBehindMs;
        }
    }

    private void advanceTo(long candidateMs) {
        if (candidateMs > nowMs) {
            nowMs = candidateMs;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }
}
