package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoakPlanTest {

    private static SoakPlan plan(Duration duration, Duration sample, Duration restart, Duration warmup) {
        return new SoakPlan(2_000, 4, 10_000, duration, sample, restart, warmup, "256m");
    }

    @Test
    void theCiTierRestartsEachRoleTwiceAndCrashesEachOnce() {
        SoakPlan ci = plan(Duration.ofMinutes(10), Duration.ofSeconds(15), Duration.ofSeconds(110),
                Duration.ofSeconds(60));

        assertThat(ci.restarts()).extracting(r -> r.at().toSeconds() + " " + r.label())
                .containsExactly("110 prober:TERM", "220 aggregator:KILL", "330 prober:KILL", "440 aggregator:TERM");
        // every two minutes, the fourth would leave the aggregator 45 s after its warm-up: 3 samples, not 5
        assertThat(plan(Duration.ofMinutes(10), Duration.ofSeconds(15), Duration.ofMinutes(2), Duration.ofSeconds(60))
                .restarts()).hasSize(3);
    }

    @Test
    void probesInFlightFollowTheScheduleUpToTheProbersBound() {
        Duration m = Duration.ofMinutes(10);
        Duration s = Duration.ofSeconds(15);
        Duration r = Duration.ofSeconds(110);
        Duration w = Duration.ofSeconds(60);

        // 500 targets at 10 s with a 5 s timeout: at most 250 probes can hold a socket at once
        assertThat(new SoakPlan(500, 4, 10_000, m, s, r, w, "256m").probesInFlight()).isEqualTo(250);
        // 10,000 targets: the schedule would allow 5,000, the prober's max.in.flight stops at 1,000
        assertThat(new SoakPlan(10_000, 5, 10_000, m, s, r, w, "256m").probesInFlight())
                .isEqualTo(SoakPlan.MAX_IN_FLIGHT);
        assertThat(new SoakPlan(3, 1, 1_001, m, s, r, w, "256m").probeTimeoutMs()).isEqualTo(500);
        assertThat(new SoakPlan(3, 1, 1_001, m, s, r, w, "256m").probesInFlight()).isEqualTo(2);
        assertThat(new SoakPlan(500, 4, 10_000, m, s, r, w, "256m").roleHeapMib()).isEqualTo(256);
        assertThat(new SoakPlan(500, 4, 10_000, m, s, r, w, "1G").roleHeapMib()).isEqualTo(1024);
    }

    @Test
    void aClockCutToFitATimeLimitStillRestartsBothRoles() {
        SoakPlan ci = plan(Duration.ofMinutes(8), Duration.ofSeconds(15), Duration.ofSeconds(100),
                Duration.ofSeconds(60));

        assertThat(ci.restarts()).extracting(SoakPlan.Restart::label)
                .containsExactly("prober:TERM", "aggregator:KILL", "prober:KILL");
        // the shortest useful clock: two restarts and the second restarted process's warm-up plus 5 samples
        assertThat(ci.shortestUseful()).isEqualTo(Duration.ofSeconds(335));
        assertThat(ci.withDuration(ci.shortestUseful()).restarts()).extracting(SoakPlan.Restart::label)
                .containsExactly("prober:TERM", "aggregator:KILL");
        assertThat(ci.withDuration(Duration.ofSeconds(334)).restarts()).hasSize(1);
    }

    @Test
    void noRestartIsPlannedTooLateForTheRestartedProcessToBeJudged() {
        // 30 s after the last restart: 20 s of warm-up and 5 samples of 3 s do not fit
        SoakPlan shortRun = plan(Duration.ofSeconds(90), Duration.ofSeconds(3), Duration.ofSeconds(30),
                Duration.ofSeconds(20));

        assertThat(shortRun.restarts()).extracting(SoakPlan.Restart::label).containsExactly("prober:TERM");
        assertThat(plan(Duration.ofSeconds(95), Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(20))
                .restarts()).extracting(SoakPlan.Restart::label).containsExactly("prober:TERM", "aggregator:KILL");
    }

    @Test
    void theLongTierAlternatesSignalsPerRole() {
        SoakPlan longTier = plan(Duration.ofMinutes(60), Duration.ofSeconds(30), Duration.ofMinutes(5),
                Duration.ofMinutes(2));

        assertThat(longTier.restarts()).hasSize(11);
        assertThat(longTier.restarts().stream().filter(SoakPlan.Restart::kill)).extracting(r -> r.at().toMinutes())
                .containsExactly(10L, 15L, 30L, 35L, 50L, 55L);
        assertThat(longTier.maxLag()).isEqualTo(2_000);
    }

    @Test
    void refusesAShapeTheVerdictCouldNotJudge() {
        assertThatThrownBy(() -> plan(Duration.ofMinutes(10), Duration.ofSeconds(15), Duration.ofSeconds(70),
                Duration.ofSeconds(60))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("restartEvery: PT1M10S (expected: longer than warmup PT1M plus one sample");
        assertThatThrownBy(() -> plan(Duration.ofSeconds(60), Duration.ofSeconds(15), Duration.ofMinutes(2),
                Duration.ofSeconds(60))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("duration: PT1M (expected: at least warmup plus 5 samples, 135 s)");
        assertThatThrownBy(() -> new SoakPlan(2_000, 0, 10_000, Duration.ofMinutes(10), Duration.ofSeconds(15),
                Duration.ofMinutes(2), Duration.ofSeconds(60), "256m")).hasMessageStartingWith("flapping: 0");
        assertThatThrownBy(() -> new SoakPlan(2_000, 4, 10_000, Duration.ofMinutes(10), Duration.ofSeconds(15),
                Duration.ofMinutes(2), Duration.ofSeconds(60), "lots")).hasMessageStartingWith("roleHeap: lots");
    }
}
