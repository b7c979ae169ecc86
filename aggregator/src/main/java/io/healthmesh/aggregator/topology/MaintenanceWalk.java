package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceBook;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * When a task compares its rows with the maintenance windows, and how far it got: a walk starts at task start
 * (windows may have started or ended while the task was away), when the instance's book changed (its version moved)
 * and when a window's start or end passed since the last pass; it goes through one store's rows in key order, at most
 * {@link #MAX_ROWS_PER_PASS} per pass, so that Kafka Streams commits between passes. The target task walks its
 * targets' rows ({@link MaintenanceTracker}), the group task its groups' ({@link GroupMaintenanceTracker}).
 */
final class MaintenanceWalk {

    /** Rows one pass compares at most; the rest wait for the next pass (so Kafka Streams commits between them). */
    static final int MAX_ROWS_PER_PASS = 5_000;

    /** Compares one row with the book; returns what must be emitted for it, or null when its window did not change. */
    interface Comparison<V, C> {
        C changed(String key, V row, MaintenanceBook book);
    }

    private final MaintenanceWindows windows;
    private long seenVersion;
    private long lastPassMs;
    /** True while a walk is under way; {@link #after} is where it goes on (null: from the first row). */
    private boolean walking;
    private String after;

    MaintenanceWalk(MaintenanceWindows windows) {
        this.windows = requireNonNull(windows, "windows");
    }

    /** At task start: the next pass compares every row once. */
    void start(long nowMs) {
        this.seenVersion = windows.snapshot().version();
        this.lastPassMs = nowMs;
        this.walking = true;
        this.after = null;
    }

    /**
     * One pass at {@code nowMs}: starts a walk when the windows changed or a boundary passed, and goes on with it
     * through {@code rows}. Returns what {@code comparison} found changed, in key order.
     */
    <V, C> List<C> pass(KeyValueStore<String, V> rows, long nowMs, Comparison<V, C> comparison) {
        MaintenanceWindows.Snapshot s = windows.snapshot();
        if (s.version() != seenVersion || s.book().crossesBoundary(lastPassMs, nowMs)) {
            seenVersion = s.version();
            walking = true;
            after = null;
        }
        lastPassMs = Math.max(lastPassMs, nowMs);
        if (!walking) {
            return List.of();
        }
        List<C> changes = new ArrayList<>();
        int seen = 0;
        String last = null;
        boolean more = false;
        try (KeyValueIterator<String, V> it = after == null ? rows.all() : rows.range(after, null)) {
            while (it.hasNext()) {
                KeyValue<String, V> entry = it.next();
                if (entry.key.equals(after)) {
                    continue;
                }
                if (seen == MAX_ROWS_PER_PASS) {
                    more = true;
                    break;
                }
                seen++;
                last = entry.key;
                C change = comparison.changed(entry.key, entry.value, s.book());
                if (change != null) {
                    changes.add(change);
                }
            }
        }
        walking = more;
        after = more ? last : null;
        return changes;
    }

    /** True while a walk has rows left: the caller passes again soon. */
    boolean walking() {
        return walking;
    }
}
