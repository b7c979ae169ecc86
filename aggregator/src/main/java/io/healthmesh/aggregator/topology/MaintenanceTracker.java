package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * The target task's side of maintenance: which window is in force for a target when its state event is produced
 * ({@link #emitting}: matched against the instance's {@link MaintenanceWindows} at the event's time, never copied
 * onto targets), and which targets need an event because a window started or ended or the windows changed
 * ({@link #pass}: when the book's version moved or a window boundary passed since the last pass, the task's rows are
 * walked in key order by {@link MaintenanceWalk}, at most {@link #MAX_ROWS_PER_PASS} per pass, and every target
 * whose window in force differs from the one its last event carried is returned). Each row is a few dozen bytes read,
 * so a selector covering 100,000 targets costs one walk, bounded per pass, and one event per target whose window
 * changed.
 */
final class MaintenanceTracker {

    /** Rows one pass compares at most; the rest wait for the next pass (so Kafka Streams commits between them). */
    static final int MAX_ROWS_PER_PASS = MaintenanceWalk.MAX_ROWS_PER_PASS;

    /** A target whose window in force changed, and that window (null: none any more). */
    record Change(String targetId, MaintenanceWindow window) {
    }

    private final MaintenanceWindows windows;
    private KeyValueStore<String, MaintenanceRow> rows;
    private final MaintenanceWalk walk;

    MaintenanceTracker(MaintenanceWindows windows) {
        this.windows = requireNonNull(windows, "windows");
        this.walk = new MaintenanceWalk(windows);
    }

    /** At task start: every row is compared once (windows may have started or ended while the task was away). */
    void init(ProcessorContext<?, ?> context) {
        this.rows = context.getStateStore(AggregatorTopology.TARGET_MAINTENANCE_STORE);
        long nowMs = context.currentSystemTimeMs();
        walk.start(nowMs);
        // load and link what the first event needs now, at task start, not inside the first record's processing
        MaintenanceRow probe = new MaintenanceRow("", Map.of(), MaintenanceRow.Emitted.of(null));
        new MaintenanceRowSerde().deserializer().deserialize("", new MaintenanceRowSerde().serializer()
                .serialize("", probe));
        io.healthmesh.contract.maintenance.MaintenanceRecords.inForce(
                windows.snapshot().book().inForce("", "", Map.of(), nowMs));
        io.healthmesh.schema.MaintenanceInForce.getClassSchema();
    }

    /** A target's definition: its group and labels are what selectors match. */
    void defined(String id, String group, Map<String, String> labels) {
        MaintenanceRow row = rows.get(id);
        MaintenanceRow next = new MaintenanceRow(group, labels, row == null ? null : row.emitted());
        if (!next.equals(row)) {
            rows.put(id, next);
        }
    }

    void deleted(String id) {
        rows.delete(id);
    }

    /** The window in force for {@code id} at {@code nowMs} (null: none), recorded as carried by its next event. */
    MaintenanceWindow emitting(String id, String group, long nowMs) {
        MaintenanceRow row = rows.get(id);
        Map<String, String> labels = row == null ? Map.of() : row.labels();
        MaintenanceWindow w = windows.snapshot().book().inForce(id, group, labels, nowMs);
        MaintenanceRow.Emitted e = MaintenanceRow.Emitted.of(w);
        if (row == null || !Objects.equals(row.emitted(), e) || !row.group().equals(group)) {
            rows.put(id, new MaintenanceRow(group, labels, e));
        }
        return w;
    }

    /** True when the window in force for {@code id} at {@code nowMs} is not the one its last event carried. */
    boolean changed(String id, long nowMs) {
        MaintenanceRow row = rows.get(id);
        return row != null && !Objects.equals(row.emitted(), MaintenanceRow.Emitted.of(
                windows.snapshot().book().inForce(id, row.group(), row.labels(), nowMs)));
    }

    /**
     * One pass at {@code nowMs} ({@link MaintenanceWalk}): returns the targets whose event must be produced now (the
     * caller produces it through {@link #emitting}).
     */
    List<Change> pass(long nowMs) {
        return walk.pass(rows, nowMs, (id, row, book) -> {
            MaintenanceWindow w = book.inForce(id, row.group(), row.labels(), nowMs);
            return Objects.equals(row.emitted(), MaintenanceRow.Emitted.of(w)) ? null : new Change(id, w);
        });
    }

    /** True while a walk has rows left: the caller passes again soon. */
    boolean walking() {
        return walk.walking();
    }
}
