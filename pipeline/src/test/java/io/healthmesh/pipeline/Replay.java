package io.healthmesh.pipeline;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.ProbeResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays the probe results a prober published through the aggregator's own state machine
 * ({@link TargetHealthState}, the code the Streams topology runs), target by target in start order: what each
 * target's status became and when. Lets an IT judge the prober's results independently of the Streams plumbing.
 */
final class Replay {

    /** One status a target entered: when (the result's completion) and why. */
    record Change(String targetId, HealthStatus status, long atMs, String reason) {
    }

    private Replay() {
    }

    /** Every status change of the given targets, in order per target. */
    static List<Change> changes(List<ProbeResult> results, Map<String, TargetSpec> specs) {
        Map<String, List<ProbeResult>> byTarget = new HashMap<>();
        for (ProbeResult r : results) {
            if (specs.containsKey(r.getTargetId().toString())) {
                byTarget.computeIfAbsent(r.getTargetId().toString(), k -> new ArrayList<>()).add(r);
            }
        }
        List<Change> changes = new ArrayList<>();
        for (Map.Entry<String, List<ProbeResult>> e : new TreeMap<>(byTarget).entrySet()) {
            TargetEssentials essentials = TargetEssentials.of(specs.get(e.getKey()));
            TargetHealthState state = TargetHealthState.create(essentials, 0, 0).after();
            List<ProbeResult> ordered = new ArrayList<>(e.getValue());
            ordered.sort(Comparator.comparingLong(ProbeResult::getStartedAtMs));
            for (ProbeResult r : ordered) {
                ProbeObservation observation = new ProbeObservation(r.getRegion().toString(), r.getGeneration(),
                        Outcome.valueOf(r.getOutcome().name()), r.getStartedAtMs(), r.getLatencyMicros(),
                        r.getDetail() == null ? null : r.getDetail().toString());
                HealthStatus before = state.status();
                state = state.apply(observation, observation.completedAtMs()).after();
                if (state.status() != before) {
                    changes.add(new Change(e.getKey(), state.status(), observation.completedAtMs(),
                            observation.outcome() + (observation.detail() == null ? "" : ": " + observation.detail())));
                }
            }
        }
        return changes;
    }
}
