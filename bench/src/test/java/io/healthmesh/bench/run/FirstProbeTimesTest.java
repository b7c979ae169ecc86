package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FirstProbeTimesTest {

    @Test
    void countsEachTargetOnceFromItsFirstProbeOfTheRound() {
        FirstProbeTimes times = new FirstProbeTimes("p", 4, 1_000);
        times.probe("p-0", 1_500);
        times.probe("p-0", 1_200);   // an earlier probe read later (another partition) is the first
        times.probe("p-1", 900);     // before the round
        times.probe("p-2", 3_000);

        assertThat(times.probed()).isEqualTo(2);
        assertThat(times.millisToProbe(0.25)).isEqualTo(200);
        assertThat(times.millisToProbe(0.5)).isEqualTo(2_000);
        assertThat(times.millisToProbe(0.75)).isEqualTo(-1);
    }

    @Test
    void aNewRoundForgetsTheLastOne() {
        FirstProbeTimes times = new FirstProbeTimes("p", 2, 0);
        times.probe("p-0", 10);
        times.probe("p-1", 20);
        assertThat(times.millisToProbe(1.0)).isEqualTo(20);

        times.since(100);
        times.probe("p-1", 50);
        times.probe("p-1", 130);
        assertThat(times.probed()).isEqualTo(1);
        assertThat(times.millisToProbe(1.0)).isEqualTo(-1);
        times.probe("p-0", 160);
        assertThat(times.millisToProbe(1.0)).isEqualTo(60);
    }

    @Test
    void ignoresKeysOutsideTheFleet() {
        FirstProbeTimes times = new FirstProbeTimes("p", 2, 0);
        for (String key : new String[] {null, "p-", "p-2", "p--1", "q-0", "p-x", "p-0x", "p0"}) {
            times.probe(key, 10);
            assertThat(times.index(key)).as(String.valueOf(key)).isEqualTo(-1);
        }
        assertThat(times.probed()).isZero();
        assertThat(times.index("p-1")).isEqualTo(1);
    }

    @Test
    void refusesAnEmptyFleetAndSharesOutsideTheUnitInterval() {
        assertThatThrownBy(() -> new FirstProbeTimes("p", 0, 0)).hasMessageContaining("targets: 0");
        FirstProbeTimes times = new FirstProbeTimes("p", 1, 0);
        assertThatThrownBy(() -> times.millisToProbe(0)).hasMessageContaining("share: 0");
        assertThatThrownBy(() -> times.millisToProbe(1.5)).hasMessageContaining("share: 1.5");
    }
}
