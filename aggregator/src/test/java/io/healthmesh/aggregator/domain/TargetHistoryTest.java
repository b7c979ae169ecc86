package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TargetHistoryTest {

    private static TargetHistory.Result result(long at, Outcome outcome) {
        return new TargetHistory.Result(at, "r", outcome, 1_000, null);
    }

    @Test
    void keepsTheNewestEntriesUpToTheLengthOldestFirst() {
        TargetHistory h = TargetHistory.EMPTY;
        for (int i = 1; i <= 5; i++) {
            h = h.with(result(i * 1_000L, Outcome.SUCCESS), 3);
        }
        assertThat(h.entries()).extracting(TargetHistory.Entry::atMs).containsExactly(3_000L, 4_000L, 5_000L);
        assertThat(h.since(4_000)).extracting(TargetHistory.Entry::atMs).containsExactly(4_000L, 5_000L);
        assertThat(h.with(result(6_000, Outcome.SUCCESS), 0)).isEqualTo(TargetHistory.EMPTY);
    }

    @Test
    void recordsTheResultThatCausedAFlipAndTheFlipItself() {
        TargetEssentials spec = new TargetEssentials("t", "g", true, new Thresholds(1, 1), 1_000, 500, List.of(),
                QuorumRule.MAJORITY, 7);
        TargetHealthState state = TargetHealthState.create(spec, 0, 0).after();
        ProbeObservation ok = new ProbeObservation("r", 7, Outcome.SUCCESS, 1_000, 2_000, null);
        ProbeObservation refused = new ProbeObservation("r", 7, Outcome.CONNECTION_REFUSED, 2_000, 3_000, "refused");
        ProbeObservation otherGeneration = new ProbeObservation("r", 8, Outcome.SUCCESS, 3_000, 0, null);

        TargetUpdate healthy = state.apply(ok, 1_002);
        TargetHistory h = TargetHistory.EMPTY.record(healthy, ok, 10);
        TargetUpdate unhealthy = healthy.after().apply(refused, 2_003);
        h = h.record(unhealthy, refused, 10);
        TargetUpdate ignored = unhealthy.after().apply(otherGeneration, 3_000);
        h = h.record(ignored, otherGeneration, 10);

        assertThat(h.entries()).containsExactly(
                new TargetHistory.Result(1_000, "r", Outcome.SUCCESS, 2_000, null),
                new TargetHistory.StatusChange(1_002, HealthStatus.DETECTING, HealthStatus.HEALTHY),
                new TargetHistory.Result(2_000, "r", Outcome.CONNECTION_REFUSED, 3_000, "refused"),
                new TargetHistory.StatusChange(2_003, HealthStatus.HEALTHY, HealthStatus.UNHEALTHY));
    }
}
