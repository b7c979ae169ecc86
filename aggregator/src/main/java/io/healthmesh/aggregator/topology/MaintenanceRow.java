package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceWindow;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A target's row in the {@code target-maintenance} store: what a window's selector is matched against (the group
 * and labels of the definition in force) and the window its last state event carried, so that a window's start or
 * end, or a change of the windows, emits an event exactly for the targets whose window in force changed, after a
 * restart too.
 *
 * @param emitted the window the last event carried, or null
 */
record MaintenanceRow(String group, Map<String, String> labels, Emitted emitted) {

    MaintenanceRow {
        requireNonNull(group, "group");
        labels = Map.copyOf(requireNonNull(labels, "labels"));
    }

    /** What an event carried of a window: its id, mode and planned start and end. */
    record Emitted(String id, MaintenanceMode mode, long startMs, long untilMs) {

        static Emitted of(MaintenanceWindow w) {
            return w == null ? null : new Emitted(w.id(), w.mode(), w.startMs(), w.endMs());
        }
    }

    MaintenanceRow withEmitted(Emitted e) {
        return new MaintenanceRow(group, labels, e);
    }
}
