package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.replay.EmittedEvent;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;

import java.util.ArrayList;
import java.util.List;

/** Turns the aggregator's {@code TargetHealth} events into the replay's {@link EmittedEvent}s. */
final class EmittedEvents {

    private EmittedEvents() {
    }

    /**
     * The event in domain terms; {@code health == null} is a tombstone.
     *
     * @throws IllegalArgumentException when the event's counters cannot describe a state machine
     */
    static EmittedEvent of(String targetId, long timestampMs, long offset, TargetHealth health) {
        if (health == null) {
            return new EmittedEvent(targetId, timestampMs, offset, null);
        }
        long generation = health.getGeneration();
        List<RegionState> regions = new ArrayList<>();
        String lastRegion = null;
        for (RegionHealth r : health.getRegions()) {
            long lastAt = r.getLastResultAtMs() == null ? 0 : r.getLastResultAtMs();
            HealthStateMachine machine = new HealthStateMachine(generation, status(r.getStatus()),
                    r.getConsecutiveSuccesses(), r.getConsecutiveFailures());
            Outcome lastOutcome = r.getLastOutcome() == null ? Outcome.ERROR : Outcome.valueOf(r.getLastOutcome().name());
            regions.add(new RegionState(r.getRegion(), machine, lastOutcome, lastAt, timestampMs, r.getStale()));
            if (health.getLastResultAtMs() != null && lastAt == health.getLastResultAtMs()) {
                lastRegion = r.getRegion();
            }
        }
        LastResult last = null;
        if (health.getReason() != null && health.getLastResultAtMs() != null) {
            last = new LastResult(lastRegion == null ? "" : lastRegion, Outcome.valueOf(health.getReason().name()),
                    health.getReasonDetail(), health.getLatencyMicros() == null ? 0 : health.getLatencyMicros(),
                    health.getLastResultAtMs());
        }
        return new EmittedEvent(targetId, timestampMs, offset, new EmittedEvent.State(health.getGroup(),
                status(health.getStatus()), health.getPreviousStatus() == null ? null : status(health.getPreviousStatus()),
                health.getSinceMs(), health.getStale(), generation, last, regions));
    }

    private static HealthStatus status(io.healthmesh.schema.HealthStatus s) {
        return HealthStatus.valueOf(s.name());
    }
}
