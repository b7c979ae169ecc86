package io.healthmesh.aggregator.domain;

/**
 * How long a probe result for a target the aggregator has no definition of waits for that definition before it is
 * rejected as {@code UNKNOWN_TARGET} (BEHAVIOUR.md section 9).
 *
 * <p>Why results wait at all: a prober probes a target only after reading its definition, so every honest result
 * is stamped after the definition it answers. But the aggregator reads the two from different topics, and Kafka
 * Streams does not always take them in timestamp order (an input whose last known lag was zero is not waited for,
 * and a fleet applied at once leaves the definitions far behind the results). A result read first was rejected,
 * and its target decided one interval late. Replay, which orders by timestamp, applied it: the two disagreed.
 * Held, the result is applied the moment its definition is read, as replay does.
 *
 * <p>A held result ends in one of two ways:
 * <ul>
 *   <li>its target's definition is read: the result is applied if it is stamped at or after the definition (the
 *       rule replay applies), and rejected otherwise (a result of an earlier incarnation of the target);</li>
 *   <li>it is {@link #settled settled} without one, and rejected: once the task has read definitions stamped
 *       {@link #DEFINITIONS_AHEAD_MS} after it (its definition, written before it, would have come before them),
 *       or at the latest {@code maxHoldMs} after it was read.</li>
 * </ul>
 * Neither is judged on how long the definitions have been quiet: an aggregator starved of CPU, or reading a
 * million definitions, can go many seconds without reading one while its definition is still on its way.
 * At most {@code maxHeldPerTask} results are held per task and {@link #MAX_PER_TARGET} per target; a result beyond
 * either bound is rejected at once (beyond the target's, its oldest one is). {@code maxHoldMs} 0 holds nothing:
 * every such result is rejected as it is read, as before the hold existed.
 *
 * @param maxHoldMs      the longest a result is held, in milliseconds of wall clock (0: never held)
 * @param maxHeldPerTask the most results held at once by one task
 */
public record UnknownTargetHold(long maxHoldMs, int maxHeldPerTask) {

    /** Longer than the aggregator took to read a million definitions applied at once on a two-core machine. */
    public static final long DEFAULT_MAX_HOLD_MS = 600_000;
    public static final int DEFAULT_MAX_HELD_PER_TASK = 100_000;
    public static final long MAX_MAX_HOLD_MS = 3_600_000;
    /** Clock difference allowed between the host that wrote a definition and the prober that probed its target. */
    public static final long DEFINITIONS_AHEAD_MS = 30_000;
    /** Results held per target: more than any threshold needs to decide it (thresholds go up to 10). */
    public static final int MAX_PER_TARGET = 16;
    /**
     * The largest result (key, value and headers) held; a larger one is rejected at once. An honest result is well
     * under 2 KiB (ids, region and prober id of at most 255 characters, a detail of at most 200); so a task holds at
     * most {@code maxHeldPerTask} x 4 KiB, whoever writes the results topic.
     */
    public static final int MAX_HELD_BYTES = 4 * 1024;

    public static final UnknownTargetHold DEFAULT = new UnknownTargetHold(DEFAULT_MAX_HOLD_MS,
            DEFAULT_MAX_HELD_PER_TASK);
    /** Rejects at once, as the aggregator did before results were held. */
    public static final UnknownTargetHold NONE = new UnknownTargetHold(0, 0);

    public UnknownTargetHold {
        if (maxHoldMs < 0 || maxHoldMs > MAX_MAX_HOLD_MS) {
            throw new IllegalArgumentException("maxHoldMs: " + maxHoldMs + " (expected: 0.." + MAX_MAX_HOLD_MS + ")");
        }
        if (maxHeldPerTask < 0) {
            throw new IllegalArgumentException("maxHeldPerTask: " + maxHeldPerTask + " (expected: 0 or more)");
        }
    }

    /** Whether results are held at all. */
    public boolean enabled() {
        return maxHoldMs > 0 && maxHeldPerTask > 0;
    }

    /**
     * Whether a held result has waited long enough: its definition is not coming.
     *
     * @param resultTimestampMs  the result's record timestamp
     * @param heldAtMs           wall-clock time at which the task read it
     * @param nowMs              wall clock now
     * @param definitionsReadToMs the latest timestamp of a definition (or deletion) the task has read
     *                            ({@link Long#MIN_VALUE}: none yet)
     */
    public boolean settled(long resultTimestampMs, long heldAtMs, long nowMs, long definitionsReadToMs) {
        return nowMs - heldAtMs >= maxHoldMs
                || definitionsReadToMs >= saturatedAdd(resultTimestampMs, DEFINITIONS_AHEAD_MS);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }

    /**
     * Whether a held result is applied once its target's definition, stamped {@code definitionTimestampMs}, is read:
     * the definition is in force at the result's time. Replay orders the same way ({@code ReplayEngine}'s feed
     * applies every definition stamped at or before a result before the result), which is why the two agree.
     */
    public static boolean answers(long resultTimestampMs, long definitionTimestampMs) {
        return resultTimestampMs >= definitionTimestampMs;
    }
}
