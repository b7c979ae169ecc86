package io.healthmesh.replay;

/**
 * The time range of a replay, in record timestamps (epoch ms).
 *
 * @param readFromMs where reading starts: {@code fromMs} minus a warm-up, so that each target's state at
 *     {@code fromMs} is the aggregator's (see {@link ReplayEngine}); {@link Long#MIN_VALUE} for "the beginning"
 * @param fromMs where recording starts; {@link Long#MIN_VALUE} for "the beginning"
 * @param toMs where the replay ends (inclusive)
 */
public record ReplayWindow(long readFromMs, long fromMs, long toMs) {

    public ReplayWindow {
        if (readFromMs > fromMs) {
            throw new IllegalArgumentException("readFromMs: " + readFromMs + " (expected: at most fromMs " + fromMs + ")");
        }
        if (fromMs > toMs) {
            throw new IllegalArgumentException("--from: " + fromMs + " (expected: before --to " + toMs + ")");
        }
    }

    /** True when the replay starts at the beginning of the topics (no {@code --from}). */
    public boolean fromBeginning() {
        return fromMs == Long.MIN_VALUE;
    }

    public boolean contains(long ts) {
        return ts >= fromMs && ts <= toMs;
    }
}
