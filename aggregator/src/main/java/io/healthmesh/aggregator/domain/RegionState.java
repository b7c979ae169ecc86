package io.healthmesh.aggregator.domain;

import io.healthmesh.core.probe.Outcome;

import static java.util.Objects.requireNonNull;

/**
 * One region's view of a target: its own state machine and what it last reported.
 *
 * @param lastOutcome outcome of the last conclusive result applied from this region
 * @param lastResultAtMs start time of the last result applied from this region (orders results)
 * @param lastHeardAtMs the aggregator's {@link ReadClock} when that result was applied (measures staleness, so that
 *     an aggregator catching up on a backlog does not count its own lag as silence)
 * @param stale true when nothing was heard for the staleness window: the region does not vote
 * @param inconclusiveInARow INCONCLUSIVE results from this region since its last conclusive one (its prober in
 *     trouble); they move no counter and do not count as heard
 * @param lastInconclusiveDetail detail of the last of those, or {@code null} when there is none
 */
public record RegionState(String region, HealthStateMachine machine, Outcome lastOutcome, long lastResultAtMs,
                          long lastHeardAtMs, boolean stale, int inconclusiveInARow, String lastInconclusiveDetail) {

    public RegionState {
        requireNonNull(region, "region");
        requireNonNull(machine, "machine");
        requireNonNull(lastOutcome, "lastOutcome");
        if (inconclusiveInARow < 0) {
            throw new IllegalArgumentException("inconclusiveInARow: " + inconclusiveInARow + " (expected: 0 or more)");
        }
    }

    /** A region with no inconclusive result since its last conclusive one. */
    public RegionState(String region, HealthStateMachine machine, Outcome lastOutcome, long lastResultAtMs,
                       long lastHeardAtMs, boolean stale) {
        this(region, machine, lastOutcome, lastResultAtMs, lastHeardAtMs, stale, 0, null);
    }

    public RegionState withMachine(HealthStateMachine next) {
        return new RegionState(region, next, lastOutcome, lastResultAtMs, lastHeardAtMs, stale, inconclusiveInARow,
                lastInconclusiveDetail);
    }

    public RegionState withStale(boolean isStale) {
        return isStale == stale ? this : new RegionState(region, machine, lastOutcome, lastResultAtMs, lastHeardAtMs,
                isStale, inconclusiveInARow, lastInconclusiveDetail);
    }

    /** This region after one more INCONCLUSIVE result: nothing changes but the inconclusive count and detail. */
    public RegionState withInconclusive(String detail) {
        int count = inconclusiveInARow == Integer.MAX_VALUE ? inconclusiveInARow : inconclusiveInARow + 1;
        return new RegionState(region, machine, lastOutcome, lastResultAtMs, lastHeardAtMs, stale, count, detail);
    }
}
