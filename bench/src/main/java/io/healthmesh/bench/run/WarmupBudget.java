package io.healthmesh.bench.run;

import java.time.Duration;

/**
 * The short mode's time budget for each warm-up: the budget (two minutes) less what the run has taken so far and
 * what the steps after that warm-up take (its window, the drain, the peers, then the next protocol's share and the
 * shutdown), between a floor and the mode's own bound. So a slow first warm-up cannot push the whole run over its
 * budget, and the last warm-up keeps time for a path the first did not warm (HTTP's decoder). A warm-up stopped at
 * its bound is reported as not settled, as before.
 */
public final class WarmupBudget {

    /** The short mode's budget for the whole run. */
    public static final Duration SHORT_RUN = Duration.ofSeconds(120);
    /**
     * What the short mode's protocol takes after its warm-up: a 6 s window, the drain, HAProxy (4 s measured, its
     * start) and blackbox_exporter (4 s measured, its start), the shutdown: about 22 s, with slack.
     */
    public static final Duration AFTER_LAST_WARMUP = Duration.ofSeconds(24);
    /**
     * What the first warm-up leaves for the second protocol: the steps after its warm-up and the warm-up itself. A
     * cold HTTP path (the short mode has no detection phase to warm it) needs about 25 s to settle; less leaves its
     * ratio far from the full run's.
     */
    public static final Duration NEXT_PROTOCOL = AFTER_LAST_WARMUP.plusSeconds(26);
    /** No window is measured on a path warmed for less than this. */
    public static final Duration FLOOR = Duration.ofSeconds(10);

    private WarmupBudget() {
    }

    /** A warm-up's bound: {@code budget - elapsed - after}, at least {@link #FLOOR}, at most {@code cap}. */
    public static Duration bound(Duration budget, Duration elapsed, Duration after, Duration cap) {
        Duration left = budget.minus(elapsed).minus(after);
        Duration atLeastFloor = left.compareTo(FLOOR) < 0 ? FLOOR : left;
        return atLeastFloor.compareTo(cap) < 0 ? atLeastFloor : cap;
    }
}
