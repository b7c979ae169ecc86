package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.List;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * The group task's side of maintenance: which window is in force for a group when its event is produced
 * ({@link #emitting}: only a window whose selector is the group, by {@link
 * io.healthmesh.core.maintenance.MaintenanceBook#inForceForGroup}, at the event's time), recorded per group as the
 * window its last event carried (a row of the {@code group-members} store, {@link GroupRows#WINDOW}), and which
 * groups need an event because a window started or ended or the windows changed ({@link #pass}: the groups'
 * {@code group-summary} rows walked by {@link MaintenanceWalk}). So a group's fail-open alert is held by a window for
 * the group exactly as a target's alert is by a window covering the target, after a restart too.
 */
final class GroupMaintenanceTracker {

    /** A group whose window in force changed, and that window (null: none any more). */
    record Change(String groupId, MaintenanceWindow window) {
    }

    private final MaintenanceWindows windows;
    private final MaintenanceWalk walk;
    private KeyValueStore<String, GroupState> summaries;
    private KeyValueStore<Bytes, byte[]> rows;

    GroupMaintenanceTracker(MaintenanceWindows windows) {
        this.windows = requireNonNull(windows, "windows");
        this.walk = new MaintenanceWalk(windows);
    }

    /** At task start: every group is compared once (windows may have started or ended while the task was away). */
    void init(ProcessorContext<?, ?> context) {
        this.summaries = context.getStateStore(AggregatorTopology.GROUP_STORE);
        this.rows = context.getStateStore(AggregatorTopology.GROUP_MEMBERS_STORE);
        walk.start(context.currentSystemTimeMs());
    }

    /** The window in force for {@code groupId} at {@code nowMs} (null: none), recorded as carried by its next event. */
    MaintenanceWindow emitting(String groupId, long nowMs) {
        MaintenanceWindow w = windows.snapshot().book().inForceForGroup(groupId, nowMs);
        MaintenanceRow.Emitted e = MaintenanceRow.Emitted.of(w);
        Bytes key = GroupRows.windowKey(groupId);
        if (!Objects.equals(carried(groupId), e)) {
            if (e == null) {
                rows.delete(key);
            } else {
                rows.put(key, GroupRows.encodeWindow(e));
            }
        }
        return w;
    }

    /** The group is gone (its tombstone was written): nothing is carried any more. */
    void forget(String groupId) {
        rows.delete(GroupRows.windowKey(groupId));
    }

    /**
     * One pass at {@code nowMs} ({@link MaintenanceWalk}): returns the groups with members whose event must be
     * produced now because their window in force is not the one their last event carried (the caller produces it
     * through {@link #emitting}).
     */
    List<Change> pass(long nowMs) {
        return walk.pass(summaries, nowMs, (groupId, state, book) -> {
            if (state.counts().isEmpty()) {
                return null; // a group kept for its threshold alone: it has no event to carry a window
            }
            MaintenanceWindow w = book.inForceForGroup(groupId, nowMs);
            return Objects.equals(carried(groupId), MaintenanceRow.Emitted.of(w)) ? null : new Change(groupId, w);
        });
    }

    /** True while a walk has rows left: the caller passes again soon. */
    boolean walking() {
        return walk.walking();
    }

    private MaintenanceRow.Emitted carried(String groupId) {
        return GroupRows.decodeWindow(rows.get(GroupRows.windowKey(groupId)));
    }
}
