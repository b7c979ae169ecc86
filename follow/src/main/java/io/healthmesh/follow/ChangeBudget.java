package io.healthmesh.follow;

import java.util.function.LongSupplier;

/**
 * A token bucket bounding how many changes a follower makes to its data plane per second: {@code burst} at once,
 * then {@code perSecond}. What does not fit waits for the next token. It makes a checker-side fault (a partition that
 * hides every member at once) reach the data plane no faster than an operator can notice and react. Not thread-safe.
 */
public final class ChangeBudget {

    private static final long SECOND = 1_000_000_000L;

    private final double perNano;
    private final int burst;
    private final LongSupplier nanoTime;
    private double tokens;
    private long last;

    /**
     * @param perSecond changes allowed per second in the long run, above 0
     * @param burst     changes allowed at once, at least 1; the bucket starts full
     */
    public ChangeBudget(double perSecond, int burst, LongSupplier nanoTime) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("perSecond: " + perSecond + " (expected: above 0)");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst: " + burst + " (expected: 1 or more)");
        }
        this.perNano = perSecond / SECOND;
        this.burst = burst;
        this.nanoTime = java.util.Objects.requireNonNull(nanoTime, "nanoTime");
        this.tokens = burst;
        this.last = nanoTime.getAsLong();
    }

    /** How many of {@code wanted} changes may be made now (0 to {@code wanted}); takes them. Never blocks. */
    public int take(int wanted) {
        if (wanted < 0) {
            throw new IllegalArgumentException("wanted: " + wanted + " (expected: 0 or more)");
        }
        refill();
        int granted = (int) Math.min(wanted, Math.floor(tokens));
        tokens -= granted;
        return granted;
    }

    /** Nanoseconds until at least one change is allowed (0 when one is allowed now). */
    public long nanosUntilNext() {
        refill();
        if (tokens >= 1) {
            return 0;
        }
        return (long) Math.ceil((1 - tokens) / perNano);
    }

    private void refill() {
        long now = nanoTime.getAsLong();
        long elapsed = now - last;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * perNano);
            last = now;
        }
    }
}
