package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IntervalEstimateTest {

    private static final long GEN = 7;
    private static final int STEADY = 5_000;
    private static final TargetEssentials SPEC = new TargetEssentials("t", "g", true, new Thresholds(3, 3), STEADY,
            1_000, List.of(), QuorumRule.MAJORITY, GEN);

    /** Results every 5 s from 0 to 115 s; down (failing) from 30 s for 30 s, i.e. the results at 30 .. 55 s. */
    private static List<ProbeObservation> downFor30sRecordedAt5s() {
        List<ProbeObservation> out = new ArrayList<>();
        for (long t = 0; t <= 115_000; t += STEADY) {
            boolean down = t >= 30_000 && t < 60_000;
            out.add(new ProbeObservation("r1", GEN, down ? Outcome.TIMEOUT : Outcome.SUCCESS, t, 0, null));
        }
        return out;
    }

    @Test
    void aFastIntervalDetectsAfterUnhealthyMinusOneFastProbes() {
        IntervalEstimate.TargetEstimate e = IntervalEstimate.of(SPEC, new IntervalEstimate.Intervals(STEADY, 1_000,
                STEADY), downFor30sRecordedAt5s(), 0, 120_000);

        // recorded: the 3rd failure starts 2 intervals after the first one
        assertThat(e.recorded().detectionMs()).containsExactly(2L * STEADY);
        assertThat(e.recorded().recoveryMs()).containsExactly(2L * STEADY);
        assertThat(e.recorded().probes()).isEqualTo(24);
        // estimate: (unhealthy - 1) x fast after the first failure, and (healthy - 1) x fast after the first success
        // the schedule sees (62 s: the down interval of 5 s from 57 s), counted from the recorded recovery at 60 s
        assertThat(e.estimated().detectionMs()).containsExactly(2L * 1_000);
        assertThat(e.estimated().recoveryMs()).containsExactly(64_000L - 60_000);
        // 0..25 s steady (6), 30, 31, 32 pending (3), 37..57 down (5), 62, 63, 64 pending (3), 69..114 steady (10)
        assertThat(e.estimated().probes()).isEqualTo(6 + 3 + 5 + 3 + 10);
        assertThat(e.estimated().probesPerHour()).isEqualTo(27 * 30.0);
    }

    @Test
    void aLongDownIntervalCutsTheProbesWhileDown() {
        IntervalEstimate.TargetEstimate e = IntervalEstimate.of(SPEC, new IntervalEstimate.Intervals(STEADY, 1_000,
                20_000), downFor30sRecordedAt5s(), 0, 120_000);

        // 0..25 (6), 30, 31, 32 (3), 52 down (1), 72 success then 73, 74 pending (3), 79..114 steady (8)
        assertThat(e.estimated().probes()).isEqualTo(6 + 3 + 1 + 3 + 8);
        assertThat(e.estimated().recoveryMs()).containsExactly(74_000L - 60_000);
    }

    @Test
    void theSameIntervalsAsRecordedReproduceTheRecordedRun() {
        IntervalEstimate.TargetEstimate e = IntervalEstimate.of(SPEC, new IntervalEstimate.Intervals(STEADY, STEADY,
                STEADY), downFor30sRecordedAt5s(), 0, 120_000);

        assertThat(e.estimated()).isEqualTo(e.recorded());
    }

    @Test
    void onlyResultsInTheRangeAreCounted() {
        IntervalEstimate.TargetEstimate e = IntervalEstimate.of(SPEC, new IntervalEstimate.Intervals(STEADY, 1_000,
                STEADY), downFor30sRecordedAt5s(), 60_000, 120_000);

        assertThat(e.recorded().detectionMs()).isEmpty(); // UNHEALTHY was entered at 40 s, before the range
        assertThat(e.recorded().probes()).isEqualTo(12);
        assertThat(e.recorded().recoveryMs()).containsExactly(2L * STEADY);
    }

    @Test
    void intervalsMustBePositive() {
        assertThatThrownBy(() -> new IntervalEstimate.Intervals(STEADY, 0, STEADY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected");
    }
}
