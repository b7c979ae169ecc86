package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JitQuietTest {

    private final AtomicLong clock = new AtomicLong();

    /** A JVM whose compiler CPU total (ms) reads these values one sample after the other, then stays at the last. */
    private static JitQuiet.Jvm jvm(String name, Long... totals) {
        ArrayDeque<Long> left = new ArrayDeque<>(List.of(totals));
        long[] last = {0};
        LongSupplier read = () -> {
            if (!left.isEmpty()) {
                last[0] = left.poll();
            }
            return last[0];
        };
        return new JitQuiet.Jvm(name, read);
    }

    private JitQuiet over(JitQuiet.Jvm... jvms) {
        return new JitQuiet(List.of(jvms), pause -> clock.addAndGet(pause.toNanos()), clock::get);
    }

    @Test
    void quietOnceTheSumOverTheJvmsStaysWithinTheBoundForTheSamplesAsked() throws InterruptedException {
        // per second: driver 300, 30, 30, 30, 30; prober 0, 10, 40 (sum 70: over), 10, 10
        JitQuiet.Outcome outcome = over(
                jvm("driver", 1_000L, 1_300L, 1_330L, 1_360L, 1_390L, 1_420L, 1_450L),
                jvm("prober", 500L, 500L, 510L, 550L, 560L, 570L, 580L))
                .await(50, 3, Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(outcome.quiet()).isTrue();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(6));
        assertThat(outcome.lastMillisPerSecond()).containsEntry("driver", 30.0).containsEntry("prober", 10.0);
        assertThat(outcome.describe()).contains("went quiet").contains("6.0 s").contains("driver 30, prober 10 ms/s");
    }

    @Test
    void aJvmWhoseCompilersCannotBeReadCountsAsBusy() throws InterruptedException {
        JitQuiet.Outcome outcome = over(jvm("driver", 0L, 0L, 0L, 0L, 0L), jvm("aggregator", -1L))
                .await(50, 2, Duration.ofSeconds(1), Duration.ofSeconds(5));

        assertThat(outcome.quiet()).isFalse();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(5));
        assertThat(outcome.lastMillisPerSecond()).containsEntry("aggregator", -1.0);
        assertThat(outcome.describe()).contains("did NOT go quiet").contains("aggregator unreadable");
    }

    @Test
    void givesUpAtItsBoundAndSaysTheFlipsShareTheCoresWithCompilation() throws InterruptedException {
        JitQuiet.Outcome outcome = over(jvm("aggregator", 0L, 400L, 800L, 1_200L, 1_600L, 2_000L))
                .await(50, 3, Duration.ofSeconds(1), Duration.ofSeconds(4));

        assertThat(outcome.quiet()).isFalse();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(4));
        assertThat(outcome.lastMillisPerSecond()).containsEntry("aggregator", 400.0);
        assertThat(outcome.describe()).contains("within 4.0 s").contains("share the cores with compilation");
    }

    @Test
    void refusesABoundThatCannotBeMet() {
        assertThatThrownBy(() -> over(jvm("driver", 0L)).await(-1, 3, Duration.ofSeconds(1), Duration.ofSeconds(4)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JitQuiet(List.of(), pause -> { }, clock::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("none to watch");
    }
}
