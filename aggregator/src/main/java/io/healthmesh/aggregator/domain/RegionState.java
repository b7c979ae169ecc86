package io.healthmesh.aggregator.domain;

import io.healthmesh.core.probe.Outcome;

import static java.util.Objects.requireNonNull;

/**
 * One region's view of a target: its own state machine and what it last reported.
 *
 * @param lastResultAtMs start time of the last result applied from this region (orders results)
 * @param lastHeardAtMs aggregator wall-clock time when that result was applied (measures staleness, so that
 *     prober clock skew cannot make a region stale or fresh)
 * @param stale true when nothing was heard for the staleness window: the region does not vote
 */
public record RegionState(String region, HealthStateMachine machine, Outcome lastOutcome, long lastResultAtMs,
                          long lastHeardAtMs, boolean stale) {

    public RegionState {
        requireNonNull(region, "region");
        requireNonNull(machine, "machine");
        requireNonNull(lastOutcome, "lastOutcome");
    }

    public RegionState withMachine(HealthStateMachine next) {
        return new RegionState(region, next, lastOutcome, lastResultAtMs, lastHeardAtMs, stale);
    }

    public RegionState withStale(boolean isStale) {
        return isStale == stale ? this : new RegionState(region, machine, lastOutcome, lastResultAtMs, lastHeardAtMs, isStale);
    }
}
