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
 * @param historyNext the sequence number of the target's next history entry, or {@link #UNKNOWN} for a row written
 *     before the number was kept here (its history store still holds a head row, read once and then dropped)
 */
public record StoredTarget(TargetHealthState state, long historyNext) {

    /** No number kept: a row of an earlier version. */
    public static final long UNKNOWN = -1;

    public StoredTarget {
        requireNonNull(state, "state");
        if (historyNext < UNKNOWN) {
            throw new IllegalArgumentException("historyNext: " + historyNext + " (expected: -1 or more)");
        }
    }
}
