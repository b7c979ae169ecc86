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
 * <p>With state-dependent intervals (BEHAVIOUR.md section 5b) the probes after the first disagreeing one come at
 * {@code fastIntervalMs}, so {@code fastInterval} takes the place of {@code interval} in each formula; how long the
 * first disagreeing probe takes to come is {@link #untilFirstFailingProbe} and {@link #untilFirstSucceedingProbe}.
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
        if (spec.hasStateIntervals()) {
            return withStateIntervals(spec, responseTime.toMillis());
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

    /**
     * The longest wait from a healthy target's failure to the start of the first probe that sees it: one
     * {@code interval} at a fixed rate; at a fixed delay the probe that started just before the failure may still
     * answer (in {@code responseTime}) before the interval is waited.
     */
    public static Duration untilFirstFailingProbe(TargetSpec spec, Duration responseTime) {
        long wait = spec.intervalMs() + (spec.fixedDelay() ? responseTime.toMillis() : 0);
        return Duration.ofMillis(wait);
    }

    /**
     * The longest wait from an UNHEALTHY target's recovery to the start of the first probe that sees it: one
     * {@code downInterval} (else {@code interval}) at a fixed rate; at a fixed delay the failing probe that started
     * just before may still run to its timeout first.
     */
    public static Duration untilFirstSucceedingProbe(TargetSpec spec) {
        long wait = spec.downIntervalOrDefault() + (spec.fixedDelay() ? spec.timeoutMs() : 0);
        return Duration.ofMillis(wait);
    }

    /**
     * The longest time from a healthy target's failure to its UNHEALTHY result, every probe timing out: the wait for
     * the first failing probe, the window, and at a fixed rate the deciding probe's own time (the L4 window counts
     * between probe starts).
     */
    public Duration fromFailureAtMost(TargetSpec spec, Duration responseTime) {
        return untilFirstFailingProbe(spec, responseTime).plus(toUnhealthy)
                .plusMillis(spec.fixedDelay() ? 0 : spec.timeoutMs());
    }

    /** The longest time from an UNHEALTHY target's recovery to its HEALTHY result, every probe answering in time. */
    public Duration fromRecoveryAtMost(TargetSpec spec, Duration responseTime) {
        return untilFirstSucceedingProbe(spec).plus(toHealthy).plus(spec.fixedDelay() ? Duration.ZERO : responseTime);
    }

    /** The windows of a spec with {@code fastIntervalMs} or {@code downIntervalMs}: the fast interval in each formula. */
    private static DetectionWindow withStateIntervals(TargetSpec spec, long answer) {
        long fast = spec.fastIntervalOrDefault();
        int down = spec.unhealthyThreshold();
        int up = spec.healthyThreshold();
        String fastName = spec.fastIntervalMs() != null ? "fastInterval" : "interval";
        String failWait = " the first failing probe starts up to " + seconds(untilFirstFailingProbe(spec,
                Duration.ofMillis(answer)).toMillis()) + " after the failure";
        String upWait = " the first succeeding probe starts up to "
                + seconds(untilFirstSucceedingProbe(spec).toMillis()) + " after the recovery"
                + (spec.downIntervalMs() != null ? " (downInterval)" : "");
        if (spec.fixedDelay()) {
            String kind = spec.protocol().isLayer7() ? "L7 fixed delay" : "fixed delay under " + spec.profile();
            long timeout = spec.timeoutMs();
            long toUnhealthy = timeout * down + fast * (down - 1);
            long toHealthy = answer * up + fast * (up - 1);
            return new DetectionWindow(Duration.ofMillis(toUnhealthy),
                    "timeout x unhealthyThreshold + " + fastName + " x (unhealthyThreshold - 1) = "
                            + seconds(timeout) + " x " + down + " + " + seconds(fast) + " x " + (down - 1)
                            + " = " + seconds(toUnhealthy) + " (" + kind + ", every probe times out;" + failWait + ")",
                    Duration.ofMillis(toHealthy),
                    "responseTime x healthyThreshold + " + fastName + " x (healthyThreshold - 1) = "
                            + seconds(answer) + " x " + up + " + " + seconds(fast) + " x " + (up - 1)
                            + " = " + seconds(toHealthy) + " (" + kind + ", every probe answers in "
                            + seconds(answer) + ";" + upWait + ")");
        }
        long toUnhealthy = fast * (down - 1);
        long toHealthy = fast * (up - 1);
        return new DetectionWindow(Duration.ofMillis(toUnhealthy),
                fastName + " x (unhealthyThreshold - 1) = " + seconds(fast) + " x " + (down - 1) + " = "
                        + seconds(toUnhealthy) + " after the first failing probe (L4 fixed rate;" + failWait + ")",
                Duration.ofMillis(toHealthy),
                fastName + " x (healthyThreshold - 1) = " + seconds(fast) + " x " + (up - 1) + " = "
                        + seconds(toHealthy) + " after the first succeeding probe (L4 fixed rate;" + upWait + ")");
    }

    /** Milliseconds as seconds without trailing zeros: {@code 16 s}, {@code 1.5 s}, {@code 0.1 s}. */
    public static String seconds(long millis) {
        if (millis % 1000 == 0) {
            return millis / 1000 + " s";
        }
        return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
