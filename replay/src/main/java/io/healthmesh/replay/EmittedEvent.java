package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.core.health.HealthStatus;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One state event the aggregator emitted (a record of the health-state topic), in domain terms. Replay uses those
 * before the range to start from the aggregator's exact state, and those inside it to check itself.
 *
 * @param offset the record's offset (for messages)
 * @param state what the event says, or {@code null} for a tombstone (the target was deleted)
 */
public record EmittedEvent(String targetId, long timestampMs, long offset, State state) {

    public EmittedEvent {
        requireNonNull(targetId, "targetId");
    }

    /** The status the event reports; {@code null} for a tombstone. */
    public HealthStatus status() {
        return state == null ? null : state.status();
    }

    /**
     * The state an event carries: enough to rebuild the aggregator's stored state, counters included (every region's
     * counters are in the event's breakdown).
     *
     * @param previousStatus the status before {@code status}, or {@code null}
     * @param lastResult the last result applied, or {@code null}
     * @param regions each known region with its machine, as the event's breakdown reports it
     */
    public record State(String group, HealthStatus status, HealthStatus previousStatus, long sinceMs, boolean stale,
                        long generation, LastResult lastResult, List<RegionState> regions) {

        public State {
            requireNonNull(group, "group");
            requireNonNull(status, "status");
            regions = List.copyOf(requireNonNull(regions, "regions"));
        }
    }
}
