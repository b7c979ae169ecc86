package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.QuorumPolicy;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;

import java.util.ArrayList;
import java.util.List;

/** Maps domain state to the contract's events (BEHAVIOUR.md section 2's fields, plus the per-region breakdown). */
public final class StateEvents {

    private StateEvents() {
    }

    /**
     * The state event of a target. Counters are those of the region whose result was applied last (with one region,
     * the target's counters).
     *
     * @param nowMs when the event is produced (aggregator wall clock)
     */
    public static TargetHealth targetHealth(TargetHealthState s, long nowMs) {
        return targetHealth(s, nowMs, null);
    }

    /**
     * As {@link #targetHealth(TargetHealthState, long)}, carrying the maintenance window in force when the event is
     * produced ({@code null}: none).
     */
    public static TargetHealth targetHealth(TargetHealthState s, long nowMs, MaintenanceInForce maintenance) {
        LastResult last = s.lastResult();
        RegionState lastRegion = last == null ? null : s.regions().get(last.region());
        List<RegionHealth> regions = new ArrayList<>(s.regions().size());
        for (RegionState r : s.regions().values()) {
            regions.add(RegionHealth.newBuilder()
                    .setRegion(r.region())
                    .setStatus(HealthStatus.valueOf(r.machine().status().name()))
                    .setLastOutcome(ProbeOutcome.valueOf(r.lastOutcome().name()))
                    .setLastResultAtMs(r.lastResultAtMs())
                    .setConsecutiveSuccesses(r.machine().consecutiveSuccesses())
                    .setConsecutiveFailures(r.machine().consecutiveFailures())
                    .setStale(r.stale())
                    .setInconclusiveInARow(r.inconclusiveInARow())
                    .setLastInconclusiveDetail(r.lastInconclusiveDetail())
                    .build());
        }
        return TargetHealth.newBuilder()
                .setTargetId(s.targetId())
                .setGroup(s.spec().group())
                .setStatus(HealthStatus.valueOf(s.status().name()))
                .setPreviousStatus(s.previousStatus() == null ? null : HealthStatus.valueOf(s.previousStatus().name()))
                .setSinceMs(s.sinceMs())
                .setReason(last == null ? null : ProbeOutcome.valueOf(last.outcome().name()))
                .setReasonDetail(last == null ? null : last.detail())
                .setConsecutiveSuccesses(lastRegion == null ? 0 : lastRegion.machine().consecutiveSuccesses())
                .setConsecutiveFailures(lastRegion == null ? 0 : lastRegion.machine().consecutiveFailures())
                .setGeneration(s.generation())
                .setLatencyMicros(last == null ? null : last.latencyMicros())
                .setStale(s.stale())
                .setLastResultAtMs(last == null ? null : last.startedAtMs())
                .setUpdatedAtMs(nowMs)
                .setQuorum(QuorumPolicy.valueOf(s.spec().quorum().policy().name()))
                .setRegions(regions)
                .setMaintenance(maintenance)
                .build();
    }

    /**
     * The routing event of a group from its state (counters and fail-open decision) and the first page of its
     * routable ids (the whole list unless the page says it is truncated).
     */
    public static GroupHealth groupHealth(String groupId, GroupState state, RoutableList.Page routable, long nowMs) {
        return groupHealth(groupId, state, routable, nowMs, null);
    }

    /**
     * As {@link #groupHealth(String, GroupState, RoutableList.Page, long)}, carrying the maintenance window in force
     * for the group when the event is produced ({@code null}: none).
     */
    public static GroupHealth groupHealth(String groupId, GroupState state, RoutableList.Page routable, long nowMs,
                                          MaintenanceInForce maintenance) {
        GroupCounts counts = state.counts();
        return GroupHealth.newBuilder()
                .setGroupId(groupId)
                .setFailOpen(state.failOpen())
                .setMembers(counts.members())
                .setHealthy(counts.healthy())
                .setUnhealthy(counts.unhealthy())
                .setDetecting(counts.detecting())
                .setDisabled(counts.disabled())
                .setRoutable(new ArrayList<>(routable.ids()))
                .setRoutableTruncated(routable.truncated())
                .setFailOpenReason(state.failOpen() ? state.failOpenReason().name() : null)
                .setUpdatedAtMs(nowMs)
                .setMaintenance(maintenance)
                .build();
    }
}
