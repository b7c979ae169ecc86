package io.healthmesh.aggregator.domain;

import io.healthmesh.core.probe.Outcome;

import static java.util.Objects.requireNonNull;

/**
 * The last result applied to a target, whatever its region: the "reason" of a state event (BEHAVIOUR.md section 2).
 *
 * @param detail short detail, or {@code null}
 */
public record LastResult(String region, Outcome outcome, String detail, long latencyMicros, long startedAtMs) {

    public LastResult {
        requireNonNull(region, "region");
        requireNonNull(outcome, "outcome");
    }

    static LastResult of(ProbeObservation observation) {
        return new LastResult(observation.region(), observation.outcome(), observation.detail(),
                observation.latencyMicros(), observation.startedAtMs());
    }
}
