package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class WarmupBudgetTest {

    private static Duration bound(long elapsedSeconds) {
        return WarmupBudget.lastWarmup(WarmupBudget.SHORT_RUN, Duration.ofSeconds(elapsedSeconds),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(50));
    }

    @Test
    void theLastWarmupGetsWhatTheBudgetLeaves() {
        // the 15:29 run of 2026-12-03: 78.6 s before the HTTP warm-up, which then took 25.6 s (126 s in all)
        assertThat(WarmupBudget.lastWarmup(WarmupBudget.SHORT_RUN, Duration.ofMillis(78_600),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(50))).isEqualTo(Duration.ofMillis(17_400));
    }

    @Test
    void neverMoreThanTheModesBoundNorLessThanTheFloor() {
        assertThat(bound(5)).isEqualTo(Duration.ofSeconds(50));
        assertThat(bound(90)).isEqualTo(WarmupBudget.FLOOR);
        assertThat(bound(200)).isEqualTo(WarmupBudget.FLOOR);
        assertThat(WarmupBudget.lastWarmup(WarmupBudget.SHORT_RUN, Duration.ofSeconds(200),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(4))).isEqualTo(Duration.ofSeconds(4));
    }
}
