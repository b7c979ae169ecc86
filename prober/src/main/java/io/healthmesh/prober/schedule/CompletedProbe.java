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
 */
public record CompletedProbe(TargetSpec target, long generation, long startedAtMs, long schedulingLagMicros,
                             ProbeReport report) {

    public CompletedProbe {
        requireNonNull(target, "target");
        requireNonNull(report, "report");
    }
}
