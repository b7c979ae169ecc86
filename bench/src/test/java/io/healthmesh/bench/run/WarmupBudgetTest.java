package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class WarmupBudgetTest {

    private static Duration bound(long elapsedSeconds) {
        return WarmupBudget.bound(WarmupBudget.SHORT_RUN, Duration.ofSeconds(elapsedSeconds),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(50));
    }

    @Test
    void theLastWarmupGetsWhatTheBudgetLeaves() {
        // a short run reached its HTTP warm-up after 78.6 s; unbounded, that warm-up took 25.6 s (126 s in all)
        assertThat(WarmupBudget.bound(WarmupBudget.SHORT_RUN, Duration.ofMillis(78_600),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(50))).isEqualTo(Duration.ofMillis(17_400));
    }

    @Test
    void theFirstWarmupLeavesTheSecondItsShare() {
        // the 15:29 and 15:33 runs: 4.8-5.6 s of start before the TCP warm-up; TCP's steps after it took 21.8 s
        Duration tcp = WarmupBudget.bound(WarmupBudget.SHORT_RUN, Duration.ofMillis(5_600),
                WarmupBudget.AFTER_LAST_WARMUP.plus(WarmupBudget.NEXT_PROTOCOL), Duration.ofSeconds(50));
        assertThat(tcp).isEqualTo(Duration.ofMillis(40_400));
        Duration http = WarmupBudget.bound(WarmupBudget.SHORT_RUN, Duration.ofMillis(5_600).plus(tcp)
                .plusMillis(21_800), WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(50));
        assertThat(http).isEqualTo(Duration.ofMillis(28_200)); // the 26 s kept for it, and TCP's slack
    }

    @Test
    void neverMoreThanTheModesBoundNorLessThanTheFloor() {
        assertThat(bound(5)).isEqualTo(Duration.ofSeconds(50));
        assertThat(bound(90)).isEqualTo(WarmupBudget.FLOOR);
        assertThat(bound(200)).isEqualTo(WarmupBudget.FLOOR);
        assertThat(WarmupBudget.bound(WarmupBudget.SHORT_RUN, Duration.ofSeconds(200),
                WarmupBudget.AFTER_LAST_WARMUP, Duration.ofSeconds(4))).isEqualTo(Duration.ofSeconds(4));
    }
}
