package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecisionTimesTest {

    private static final long INTERVAL = 10_000;

    @Test
    void timesEachTargetFromItsEarliestProbeToItsFirstDecidedEvent() {
        DecisionTimes times = new DecisionTimes("d", 5);
        times.probe("d-0", 1_000);
        times.probe("d-0", 500);                  // an earlier probe read later (another partition) is the first
        times.state("d-0", "DETECTING", 600);     // not a decision
        times.state("d-0", "HEALTHY", 20_500);
        times.state("d-0", "UNHEALTHY", 21_000);  // a later change: the first decision stands
        times.probe("d-1", 2_000);
        times.state("d-1", "UNHEALTHY", 32_000);  // exactly three intervals: in the bound
        times.probe("d-2", 3_000);
        times.state("d-2", "HEALTHY", 33_001);    // one millisecond late
        times.probe("d-3", 4_000);                // probed, never decided; d-4 never probed
        times.rejected("d-3");                    // e.g. a result read before the definition
        times.rejected("d-3");
        times.rejected("x-3");                    // not of the fleet

        DecisionTimes.Summary s = times.summary(INTERVAL, 3);

        assertThat(s.targets()).isEqualTo(5);
        assertThat(s.probed()).isEqualTo(4);
        assertThat(s.decided()).isEqualTo(3);
        assertThat(s.healthy()).isEqualTo(2);
        assertThat(s.unhealthy()).isEqualTo(1);
        assertThat(s.boundMs()).isEqualTo(30_000);
        assertThat(s.decidedInBound()).isEqualTo(2);
        assertThat(s.probedUndecided()).isEqualTo(1);
        assertThat(s.neverProbed()).isEqualTo(1);
        assertThat(s.decidedUnprobed()).isZero();
        // delays 20,000, 30,000 and 30,001 ms: nearest rank
        assertThat(s.p50Ms()).isEqualTo(30_000);
        assertThat(s.p99Ms()).isEqualTo(30_001);
        assertThat(s.maxMs()).isEqualTo(30_001);
        assertThat(s.rejected()).isEqualTo(2);
        assertThat(s.rejectedTargets()).isEqualTo(1);
    }

    @Test
    void aDecisionWithoutAProbeIsCountedApartFromTheDistribution() {
        DecisionTimes times = new DecisionTimes("d", 2);
        times.state("d-1", "HEALTHY", 5_000);
        times.probe("d-0", 1_000);

        DecisionTimes.Summary s = times.summary(INTERVAL, 3);

        assertThat(s.decided()).isEqualTo(1);
        assertThat(s.decidedUnprobed()).isEqualTo(1);
        assertThat(s.decidedInBound()).isZero();
        assertThat(s.probedUndecided()).isEqualTo(1);
        assertThat(s.p50Ms()).isEqualTo(-1);
        assertThat(s.maxMs()).isEqualTo(-1);
    }

    @Test
    void thePercentilesOfAHundredTargetsAreTheirRanks() {
        DecisionTimes times = new DecisionTimes("d", 100);
        for (int n = 0; n < 100; n++) {
            times.probe("d-" + n, 0);
            times.state("d-" + n, "HEALTHY", (n + 1) * 1_000L);
        }

        DecisionTimes.Summary s = times.summary(INTERVAL, 3);

        assertThat(s.p50Ms()).isEqualTo(50_000);
        assertThat(s.p99Ms()).isEqualTo(99_000);
        assertThat(s.maxMs()).isEqualTo(100_000);
        assertThat(s.decidedInBound()).isEqualTo(30);
    }

    @Test
    void ignoresKeysOutsideTheFleetAndRefusesAnEmptyBound() {
        DecisionTimes times = new DecisionTimes("d", 1);
        times.probe("d-1", 0);
        times.probe("x-0", 0);
        times.state("d-7", "HEALTHY", 0);
        assertThat(times.probed()).isZero();
        assertThat(times.decided()).isZero();
        assertThatThrownBy(() -> times.summary(0, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DecisionTimes("d", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
