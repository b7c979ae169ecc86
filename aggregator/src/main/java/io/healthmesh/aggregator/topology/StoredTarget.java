package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetHealthState;

import static java.util.Objects.requireNonNull;

/**
 * A value of the {@code target-health} store: the target's {@link TargetHealthState} and the sequence number its
 * next history entry takes ({@link HistoryRows}). The number rides in the row that every applied result rewrites
 * anyway, so that a result writes no ring head of its own: one store read, one store write and one changelog record
 * less per result than with a head row in the history store.
 *
 * @param state the target's state
 * @param historyNext the sequence number of the target's next history entry
 */
public record StoredTarget(TargetHealthState state, long historyNext) {

    public StoredTarget {
        requireNonNull(state, "state");
        if (historyNext < 0) {
            throw new IllegalArgumentException("historyNext: " + historyNext + " (expected: 0 or more)");
        }
    }
}
