package io.healthmesh.prober.health;

import io.healthmesh.testkit.Await;
import io.netty.util.HashedWheelTimer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SelfHealthTest {

    private static final HealthSample GOOD = new HealthSample(5, 20, 1.0);
    private static final HealthSample LATE_TIMER = new HealthSample(1_500, 20, 1.0);
    private static final HealthSample LATE_LOOP = new HealthSample(5, 1_500, Double.NaN);
    private static final HealthSample STOLEN = new HealthSample(5, 20, 80.0);

    @Test
    void overloadedOnlyAfterEnoughBadSecondsInARowAndHealthyOnlyAfterEnoughGoodOnes() {
        SelfHealth health = new SelfHealth(new SheddingPolicy(true, 1_000, 50, 3, 5));
        assertThat(health.observe(LATE_TIMER)).isFalse();
        assertThat(health.observe(LATE_LOOP)).isFalse();
        assertThat(health.observe(GOOD)).isFalse(); // the run of bad seconds is broken
        assertThat(health.observe(STOLEN)).isFalse();
        assertThat(health.observe(LATE_TIMER)).isFalse();
        assertThat(health.overloaded()).isFalse();
        assertThat(health.observe(LATE_LOOP)).isTrue();
        assertThat(health.overloaded()).isTrue();
        assertThat(health.lastTrouble()).isEqualTo("an event loop ran 1500 ms late (bound 1000 ms)");
        for (int i = 0; i < 4; i++) {
            assertThat(health.observe(GOOD)).isFalse();
        }
        assertThat(health.observe(LATE_TIMER)).isFalse(); // one bad second starts the recovery over
        for (int i = 0; i < 4; i++) {
            assertThat(health.observe(GOOD)).isFalse();
        }
        assertThat(health.overloaded()).isTrue();
        assertThat(health.observe(GOOD)).isTrue();
        assertThat(health.overloaded()).isFalse();
    }

    @Test
    void stealCountsOnlyWhereVisibleAndDisabledSheddingNeverSheds() {
        SheddingPolicy policy = new SheddingPolicy(false, 1_000, 50, 1, 1);
        assertThat(policy.trouble(STOLEN)).isEqualTo("CPU steal 80.0 % (bound 50.0 %)");
        assertThat(policy.trouble(new HealthSample(0, 0, Double.NaN))).isNull();
        SelfHealth health = new SelfHealth(policy);
        for (int i = 0; i < 10; i++) {
            assertThat(health.observe(LATE_TIMER)).isFalse();
        }
        assertThat(health.overloaded()).isFalse();
    }

    @Test
    void policyBoundsAreChecked() {
        assertThatThrownBy(() -> new SheddingPolicy(true, 5, 50, 1, 1)).hasMessage("shed.lag.ms: 5 (expected: 10..60000)");
        assertThatThrownBy(() -> new SheddingPolicy(true, 1_000, 0, 1, 1))
                .hasMessage("shed.steal.percent: 0.0 (expected: above 0, at most 100)");
        assertThatThrownBy(() -> new SheddingPolicy(true, 1_000, 50, 0, 1)).hasMessage("shed.after.s: 0 (expected: 1..3600)");
        assertThatThrownBy(() -> new SheddingPolicy(true, 1_000, 50, 1, 0)).hasMessage("shed.recover.s: 0 (expected: 1..3600)");
    }

    @Test
    void cpuStealIsTheStealShareOfTheTimeBetweenTwoReads() throws Exception {
        assertThat(CpuSteal.parse("cpu  100 0 50 800 10 0 0 40 0 0")).containsExactly(1_000, 40);
        assertThat(CpuSteal.parse("cpu  100 0 50 800")).isNull();
        assertThat(CpuSteal.parse("intr 1 2 3 4 5 6 7 8 9")).isNull();
        assertThat(CpuSteal.percent(new long[] {1_000, 40}, new long[] {2_000, 290})).isEqualTo(25.0);

        Path stat = Files.createTempFile("stat", "");
        try {
            CpuSteal steal = new CpuSteal(stat);
            Files.writeString(stat, "cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1 2 3 4 5 6 7 8\n");
            assertThat(steal.samplePercent()).isNaN(); // nothing to compare with yet
            Files.writeString(stat, "cpu  600 0 50 1200 10 0 0 140 0 0\n");
            assertThat(steal.samplePercent()).isEqualTo(10.0);
            assertThat(new CpuSteal(Path.of("/no/such/file")).samplePercent()).isNaN();
        } finally {
            Files.deleteIfExists(stat);
        }
    }

    @Test
    void theMonitorSeesABlockedTimerAndSaysSoThenRecovers() throws Exception {
        HashedWheelTimer timer = new HashedWheelTimer(10, TimeUnit.MILLISECONDS);
        CopyOnWriteArrayList<Boolean> changes = new CopyOnWriteArrayList<>();
        try (SelfMonitor monitor = new SelfMonitor(timer, 10, () -> 0, () -> Double.NaN,
                new SheddingPolicy(true, 200, 50, 1, 2), changes::add).start()) {
            timer.newTimeout(t -> Thread.sleep(2_500), 0, TimeUnit.MILLISECONDS); // the timer thread is stuck
            Await.until(Duration.ofSeconds(30), () -> changes.contains(true) && changes.contains(false),
                    () -> "overloaded, then healthy again; changes: " + changes);
            assertThat(changes).as("overloaded, then healthy again").startsWith(true, false);
            assertThat(monitor.overloaded()).isFalse();
        } finally {
            timer.stop();
        }
    }
}
