package io.healthmesh.follow;

import java.util.function.LongSupplier;

/** Stand-in of the follow API until the follow branch lands. */
public final class ChangeBudget {
    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private double tokens;
    private long last;

    public ChangeBudget(double perSecond, int burst, LongSupplier nanoTime) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoTime = nanoTime;
        this.tokens = burst;
        this.last = nanoTime.getAsLong();
    }

    private void refill() {
        long now = nanoTime.getAsLong();
        tokens = Math.min(burst, tokens + (now - last) / 1e9 * perSecond);
        last = now;
    }

    public int take(int wanted) {
        refill();
        int n = (int) Math.min(wanted, Math.floor(tokens));
        tokens -= n;
        return n;
    }

    public long nanosUntilNext() {
        refill();
        return tokens >= 1 ? 0 : (long) ((1 - tokens) / perSecond * 1e9);
    }
}
