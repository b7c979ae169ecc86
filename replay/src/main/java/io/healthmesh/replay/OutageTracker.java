package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;

import java.util.ArrayList;
import java.util.List;

/** Finds the {@link Outage}s in one target's results: runs of failures lasting at least {@code minOutageMs}. */
final class OutageTracker {

    private final long minOutageMs;
    private final List<Outage> found = new ArrayList<>();
    private Long runStartMs;
    private long lastFailureMs;

    OutageTracker(long minOutageMs) {
        if (minOutageMs < 0) {
            throw new IllegalArgumentException("minOutageMs: " + minOutageMs + " (expected: 0 or more)");
        }
        this.minOutageMs = minOutageMs;
    }

    void observe(ProbeObservation result) {
        if (!result.outcome().isSuccess()) {
            if (runStartMs == null) {
                runStartMs = result.startedAtMs();
            }
            lastFailureMs = Math.max(lastFailureMs, result.completedAtMs());
            return;
        }
        close(result.startedAtMs());
    }

    List<Outage> finish() {
        close(null);
        return List.copyOf(found);
    }

    private void close(Long endMs) {
        if (runStartMs != null && lastFailureMs - runStartMs >= minOutageMs) {
            found.add(new Outage(runStartMs, lastFailureMs, endMs));
        }
        runStartMs = null;
        lastFailureMs = 0;
    }
}
