package io.healthmesh.core.target;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How long a target takes to flip, per SPEC section 5, with the formula that gave each figure.
 *
 * <p>L4 probes (TCP, UDP, ICMP) run on a fixed rate: a probe starts every interval, so the window is
 * {@code interval x (threshold - 1)} counted from the first failing (or succeeding) probe. L7 probes (HTTP, HTTPS)
 * run on a fixed delay: the next probe starts an interval after the last one ended, so each probe's own duration
 * adds up: {@code timeout x threshold + interval x (threshold - 1)} when every probe times out, and
 * {@code responseTime x threshold + interval x (threshold - 1)} when every probe answers in {@code responseTime}.
 *
 * @param toUnhealthy time from a healthy target's first failing probe until it is UNHEALTHY (L4), or from the start of
 *                    the first failing probe when every probe times out (L7)
 * @param unhealthyFormula the formula with the target's figures, e.g. {@code timeout x unhealthyThreshold + ...}
 * @param toHealthy time from an unhealthy target's first succeeding probe until it is HEALTHY (L4), or from the start
 *                  of the first succeeding probe when every probe answers in the response time (L7)
 * @param healthyFormula the formula with the target's figures
 */
public record DetectionWindow(Duration toUnhealthy, String unhealthyFormula, Duration toHealthy,
                              String healthyFormula) {

    public DetectionWindow {
        requireNonNull(toUnhealthy, "toUnhealthy");
        requireNonNull(unhealthyFormula, "unhealthyFormula");
        requireNonNull(toHealthy, "toHealthy");
        requireNonNull(healthyFormula, "healthyFormula");
    }

    /**
     * The windows of {@code spec}; {@code responseTime} is how long a succeeding L7 probe takes (ignored for L4,
     * whose fixed rate makes the probe's own duration irrelevant).
     */
    public static DetectionWindow of(TargetSpec spec, Duration responseTime) {
        requireNonNull(spec, "spec");
        requireNonNull(responseTime, "responseTime");
        if (responseTime.isNegative()) {
            throw new IllegalArgumentException("responseTime: " + responseTime + " (expected: 0 or more)");
        }
        long interval = spec.intervalMs();
        if (spec.fixedDelay()) {
            String kind = spec.protocol().isLayer7() ? "L7 fixed delay" : "fixed delay under " + spec.profile();
            long timeout = spec.timeoutMs();
            long answer = responseTime.toMillis();
            int down = spec.unhealthyThreshold();
            int up = spec.healthyThreshold();
            long toUnhealthy = timeout * down + interval * (down - 1);
            long toHealthy = answer * up + interval * (up - 1);
            return new DetectionWindow(Duration.ofMillis(toUnhealthy),
                    "timeout x unhealthyThreshold + interval x (unhealthyThreshold - 1) = "
                            + seconds(timeout) + " x " + down + " + " + seconds(interval) + " x " + (down - 1)
                            + " = " + seconds(toUnhealthy) + " (" + kind + ", every probe times out)",
                    Duration.ofMillis(toHealthy),
                    "responseTime x healthyThreshold + interval x (healthyThreshold - 1) = "
                            + seconds(answer) + " x " + up + " + " + seconds(interval) + " x " + (up - 1)
                            + " = " + seconds(toHealthy) + " (" + kind + ", every probe answers in "
                            + seconds(answer) + ")");
        }
        long toUnhealthy = interval * (spec.unhealthyThreshold() - 1);
        long toHealthy = interval * (spec.healthyThreshold() - 1);
        return new DetectionWindow(Duration.ofMillis(toUnhealthy),
                "interval x (unhealthyThreshold - 1) = " + seconds(interval) + " x " + (spec.unhealthyThreshold() - 1)
                        + " = " + seconds(toUnhealthy) + " after the first failing probe (L4 fixed rate)",
                Duration.ofMillis(toHealthy),
                "interval x (healthyThreshold - 1) = " + seconds(interval) + " x " + (spec.healthyThreshold() - 1)
                        + " = " + seconds(toHealthy) + " after the first succeeding probe (L4 fixed rate)");
    }

    /** Milliseconds as seconds without trailing zeros: {@code 16 s}, {@code 1.5 s}, {@code 0.1 s}. */
    public static String seconds(long millis) {
        if (millis % 1000 == 0) {
            return millis / 1000 + " s";
        }
        return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
