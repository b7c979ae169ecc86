package io.healthmesh.core.target;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.IntervalState.Phase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every transition of the pacing state, and the interval each phase picks. */
class IntervalStateTest {

    private static final TargetSpec SPEC = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP)
            .withTiming(10_000, 1_000).withThresholds(3, 3).withIntervals(2_000, 30_000);

    private static IntervalState feed(IntervalState from, String results) {
        IntervalState s = from;
        for (char c : results.toCharArray()) {
            s = s.after(c == 'S', SPEC.healthyThreshold(), SPEC.unhealthyThreshold());
        }
        return s;
    }

    @Test
    void aFreshScheduleIsUndecidedAndPacedAtTheInterval() {
        assertThat(IntervalState.START.believed()).isEqualTo(HealthStatus.DETECTING);
        assertThat(IntervalState.START.phase()).isEqualTo(Phase.STEADY);
        assertThat(IntervalState.START.intervalMs(SPEC)).isEqualTo(10_000);
    }

    @Test
    void successesWhileUndecidedNeedNoFastProbes() {
        assertThat(feed(IntervalState.START, "S").phase()).isEqualTo(Phase.STEADY);
        assertThat(feed(IntervalState.START, "SS").believed()).isEqualTo(HealthStatus.DETECTING);
        IntervalState healthy = feed(IntervalState.START, "SSS");
        assertThat(healthy.believed()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(healthy.intervalMs(SPEC)).isEqualTo(10_000);
    }

    @Test
    void aFailureWhileUndecidedStartsTheFastPhase() {
        IntervalState s = feed(IntervalState.START, "F");
        assertThat(s.phase()).isEqualTo(Phase.PENDING);
        assertThat(s.intervalMs(SPEC)).isEqualTo(2_000);
        assertThat(feed(IntervalState.START, "FFF").phase()).isEqualTo(Phase.DOWN);
    }

    @Test
    void theWholeCycleHealthyDownAndBack() {
        IntervalState healthy = feed(IntervalState.START, "SSS");
        assertThat(healthy.phase()).isEqualTo(Phase.STEADY);

        IntervalState firstFailure = feed(healthy, "F");
        assertThat(firstFailure.believed()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(firstFailure.phase()).isEqualTo(Phase.PENDING);
        assertThat(firstFailure.intervalMs(SPEC)).isEqualTo(2_000);

        IntervalState second = feed(firstFailure, "F");
        assertThat(second.phase()).isEqualTo(Phase.PENDING);

        IntervalState down = feed(second, "F");
        assertThat(down.believed()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(down.phase()).isEqualTo(Phase.DOWN);
        assertThat(down.intervalMs(SPEC)).isEqualTo(30_000);
        assertThat(feed(down, "FFFF").phase()).as("still down").isEqualTo(Phase.DOWN);

        IntervalState firstSuccess = feed(down, "S");
        assertThat(firstSuccess.believed()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(firstSuccess.phase()).isEqualTo(Phase.PENDING);
        assertThat(firstSuccess.intervalMs(SPEC)).isEqualTo(2_000);

        IntervalState up = feed(firstSuccess, "SS");
        assertThat(up.believed()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(up.phase()).isEqualTo(Phase.STEADY);
        assertThat(up.intervalMs(SPEC)).isEqualTo(10_000);
    }

    @Test
    void anAgreeingResultInsideTheRunEndsTheFastPhaseWithoutDeciding() {
        IntervalState healthy = feed(IntervalState.START, "SSS");
        IntervalState flapped = feed(healthy, "FFS");
        assertThat(flapped.believed()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(flapped.phase()).isEqualTo(Phase.STEADY);
        // the next failure starts a new run from one, as the aggregator counts it
        assertThat(feed(flapped, "FF").believed()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(feed(flapped, "FFF").believed()).isEqualTo(HealthStatus.UNHEALTHY);

        IntervalState down = feed(healthy, "FFF");
        IntervalState relapsed = feed(down, "SSF");
        assertThat(relapsed.believed()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(relapsed.phase()).isEqualTo(Phase.DOWN);
    }

    @Test
    void newThresholdsRejudgeTheCountsAsTheAggregatorDoes() {
        IntervalState twoFailures = feed(feed(IntervalState.START, "SSS"), "FF");
        assertThat(twoFailures.phase()).isEqualTo(Phase.PENDING);
        IntervalState lowered = twoFailures.rethreshold(3, 2);
        assertThat(lowered.believed()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(lowered.phase()).isEqualTo(Phase.DOWN);
        assertThat(twoFailures.rethreshold(3, 5)).isEqualTo(twoFailures);
    }

    @Test
    void absentIntervalsKeepOneIntervalInEveryPhase() {
        TargetSpec plain = SPEC.withIntervals(null, null);
        IntervalState healthy = feed(IntervalState.START, "SSS");
        assertThat(healthy.intervalMs(plain)).isEqualTo(10_000);
        assertThat(feed(healthy, "F").intervalMs(plain)).isEqualTo(10_000);
        assertThat(feed(healthy, "FFF").intervalMs(plain)).isEqualTo(10_000);
        assertThat(SPEC.withIntervals(2_000, null).downIntervalOrDefault()).isEqualTo(10_000);
        assertThat(SPEC.withIntervals(null, 30_000).fastIntervalOrDefault()).isEqualTo(10_000);
        assertThat(SPEC.longestIntervalMs()).isEqualTo(30_000);
        assertThat(plain.longestIntervalMs()).isEqualTo(10_000);
    }

    @Test
    void refusesImpossibleCounts() {
        assertThatThrownBy(() -> new IntervalState(HealthStatus.HEALTHY, 1, 1))
                .hasMessageContaining("at most one of them above 0");
        assertThatThrownBy(() -> new IntervalState(HealthStatus.DISABLED, 0, 0))
                .hasMessageContaining("DISABLED");
    }
}
