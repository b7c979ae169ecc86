package io.healthmesh.core.maintenance;

import static java.util.Objects.requireNonNull;

/**
 * One maintenance window as recorded in the maintenance topic: in force for the targets its selector covers from
 * {@code startMs} (inclusive) to {@code endMs} (exclusive), or until its record is deleted. Construct freely;
 * {@link MaintenanceRules#violations} says whether it may be used.
 *
 * @param createdBy who wrote it, or null
 */
public record MaintenanceWindow(String id, MaintenanceSelector selector, MaintenanceMode mode, long startMs,
                                long endMs, String reason, long createdAtMs, String createdBy) {

    public MaintenanceWindow {
        requireNonNull(id, "id");
        requireNonNull(selector, "selector");
        requireNonNull(mode, "mode");
        requireNonNull(reason, "reason");
    }

    /** True when the window is in force at {@code atMs}. */
    public boolean inForceAt(long atMs) {
        return startMs <= atMs && atMs < endMs;
    }

    /** This window ending at {@code endMs} (a window ended early by {@code maint end} keeps everything else). */
    public MaintenanceWindow endingAt(long newEndMs) {
        return new MaintenanceWindow(id, selector, mode, startMs, newEndMs, reason, createdAtMs, createdBy);
    }
}
