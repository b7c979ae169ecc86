package io.healthmesh.prober.schedule;

import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeReport;

import static java.util.Objects.requireNonNull;

/**
 * One finished probe as the scheduler hands it on: what was probed, under which generation, when it
 * started and how late against its plan, and what the engine found.
 *
 * @param target the definition the probe used
 * @param generation {@code ProbeFingerprint.of(target)}, computed once per schedule
 * @param startedAtMs wall-clock start, epoch milliseconds
 * @param schedulingLagMicros actual start minus planned start (never negative)
 * @param report the engine's verdict and timings
 * @param mayDecide true when this verdict can be the one that changes the target's state: it is among the first
 *     {@code healthyThreshold} successes (or {@code unhealthyThreshold} failures) in a row of this schedule. The
 *     publisher sends such a result at once instead of letting it wait for the producer's linger; every other result
 *     repeats a state the thresholds already settled, and only its cost matters, not its latency.
 */
public record CompletedProbe(TargetSpec target, long generation, long startedAtMs, long schedulingLagMicros,
                             ProbeReport report, boolean mayDecide) {

    public CompletedProbe {
        requireNonNull(target, "target");
        requireNonNull(report, "report");
    }

    /** A result that is not sent ahead of the linger ({@code mayDecide} false). */
    public CompletedProbe(TargetSpec target, long generation, long startedAtMs, long schedulingLagMicros,
                          ProbeReport report) {
        this(target, generation, startedAtMs, schedulingLagMicros, report, false);
    }
}
