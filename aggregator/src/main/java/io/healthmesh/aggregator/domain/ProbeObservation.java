package io.healthmesh.aggregator.domain;

import io.healthmesh.core.probe.Outcome;

import static java.util.Objects.requireNonNull;

/**
 * One probe result as the state machine needs it.
 *
 * @param region region of the prober
 * @param generation generation the prober probed
 * @param startedAtMs when the probe started (prober's clock, epoch ms); orders results within a region
 * @param latencyMicros how long the probe took
 * @param detail short detail, or {@code null}
 */
public record ProbeObservation(String region, long generation, Outcome outcome, long startedAtMs, long latencyMicros,
                               String detail) {

    public ProbeObservation {
        requireNonNull(region, "region");
        requireNonNull(outcome, "outcome");
        if (latencyMicros < 0) {
            throw new IllegalArgumentException("latencyMicros: " + latencyMicros + " (expected: 0 or more)");
        }
    }

    /** When the verdict of this probe was known: its start plus its latency. A status change is dated by it. */
    public long completedAtMs() {
        return startedAtMs + latencyMicros / 1_000;
    }
}
