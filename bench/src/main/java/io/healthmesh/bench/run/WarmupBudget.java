package io.healthmesh.bench.run;

import java.time.Duration;

/**
 * The short mode's time budget for its last warm-up: the budget (two minutes) less what the run has taken so far and
 * what the steps after that warm-up take (the window, the drain, the peers, the shutdown), between a floor and the
 * mode's own bound. The earlier warm-up runs until the JIT settles or its bound, and the last one gets what is left,
 * so that a slow first warm-up does not push the whole run over its budget; a warm-up stopped at its bound is
 * reported as not settled, as before.
 */
public final class WarmupBudget {

    /** The short mode's budget for the whole run. */
    public static final Duration SHORT_RUN = Duration.ofSeconds(120);
    /**
     * What the short mode's last protocol takes after its warm-up: a 6 s window, the drain, HAProxy (4 s measured,
     * its start) and blackbox_exporter (4 s measured, its start), the shutdown; 21.7 s on 2026-12-03, with slack.
     */
    public static final Duration AFTER_LAST_WARMUP = Duration.ofSeconds(24);
    /** No window is measured on a path warmed for less than this. */
    public static final Duration FLOOR = Duration.ofSeconds(10);

    private WarmupBudget() {
    }

    /** The bound of the last warm-up: {@code budget - elapsed - after}, at least {@link #FLOOR}, at most {@code cap}. */
    public static Duration lastWarmup(Duration budget, Duration elapsed, Duration after, Duration cap) {
        Duration left = budget.minus(elapsed).minus(after);
        if (left.compareTo(FLOOR) < 0) {
            return FLOOR.compareTo(cap) < 0 ? FLOOR : cap;
        }
        return left.compareTo(cap) < 0 ? left : cap;
    }
}
