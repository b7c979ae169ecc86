package io.healthmesh.status.board;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A target's last state event as the status page shows it.
 *
 * @param reason outcome of the last probe applied ({@code null} before the first)
 * @param latencyMicros latency of the last probe applied ({@code null} before the first)
 * @param maintenance the maintenance window the event carries ({@code null}: none)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TargetRow(String id, String group, String status, String previousStatus, long sinceMs, String reason,
                        String reasonDetail, boolean stale, Long latencyMicros, Long lastResultAtMs, String quorum,
                        List<RegionRow> regions, long updatedAtMs, Maintenance maintenance) {

    /** A window in force as the page shows it: id, {@code DRAIN} or {@code SILENCE}, planned end (epoch ms). */
    public record Maintenance(String id, String mode, long untilMs) {
    }

    /** A row under no maintenance window. */
    public TargetRow(String id, String group, String status, String previousStatus, long sinceMs, String reason,
                     String reasonDetail, boolean stale, Long latencyMicros, Long lastResultAtMs, String quorum,
                     List<RegionRow> regions, long updatedAtMs) {
        this(id, group, status, previousStatus, sinceMs, reason, reasonDetail, stale, latencyMicros, lastResultAtMs,
                quorum, regions, updatedAtMs, null);
    }

    public TargetRow {
        requireNonNull(id, "id");
        requireNonNull(group, "group");
        requireNonNull(status, "status");
        regions = List.copyOf(requireNonNull(regions, "regions"));
    }
}
