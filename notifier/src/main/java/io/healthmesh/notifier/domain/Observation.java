package io.healthmesh.notifier.domain;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One state event as the notifier sees it: a target's status (with the target's group and labels) or a group's
 * fail-open flag, or the removal of either.
 *
 * @param key the target or group
 * @param position where the event was read
 * @param group the target's group (for a group: the group id)
 * @param labels the target's labels (empty for a group or when the definition is not known)
 * @param status a target's {@code HealthStatus} name, {@link #FAIL_OPEN} or {@link #ROUTING} for a group,
 *               {@code null} when the target or group was deleted
 * @param sinceMs when this status began, epoch ms (a target's {@code sinceMs}; for a group or a deletion the
 *                event's time)
 * @param reason the outcome of the last probe applied, or a group's counts; may be null
 * @param detail a longer explanation; may be null
 * @param maintenance the maintenance window the event was produced under, or null: for a target, the window covering
 *                    it; for a group, a window whose selector is the group (target and label windows cover members,
 *                    not the group's own fail-open alert)
 * @param atMs when the event was written (its record's timestamp), epoch ms: a window's end is dated by it
 */
public record Observation(AlertKey key, Position position, String group, Map<String, String> labels,
                          String status, long sinceMs, String reason, String detail, MaintenanceMark maintenance,
                          long atMs) {

    /** A window in force, as the notifier needs it: which one, its mode ({@code DRAIN}, {@code SILENCE}), its end. */
    public record MaintenanceMark(String id, String mode, long untilMs) {
        public MaintenanceMark {
            requireNonNull(id, "id");
            requireNonNull(mode, "mode");
        }
    }

    /** An observation under no maintenance window, written at {@code sinceMs}. */
    public Observation(AlertKey key, Position position, String group, Map<String, String> labels, String status,
                       long sinceMs, String reason, String detail) {
        this(key, position, group, labels, status, sinceMs, reason, detail, null, sinceMs);
    }

    /** A group's status while it is in fail-open. */
    public static final String FAIL_OPEN = "FAIL_OPEN";
    /** A group's status while at least one member is routable on its own merit. */
    public static final String ROUTING = "ROUTING";

    public Observation {
        requireNonNull(key, "key");
        requireNonNull(position, "position");
        requireNonNull(group, "group");
        labels = Map.copyOf(labels);
    }

    /** True when a maintenance window (either mode) covered the target or group when the event was produced. */
    public boolean underMaintenance() {
        return maintenance != null;
    }

    /** True when the target or group was deleted (a tombstone). */
    public boolean deleted() {
        return status == null;
    }
}
