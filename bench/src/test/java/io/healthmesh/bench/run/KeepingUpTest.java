package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class KeepingUpTest {

    private final AtomicLong clock = new AtomicLong();

    private KeepingUp over(Long... lags) {
        ArrayDeque<Long> left = new ArrayDeque<>(List.of(lags));
        return new KeepingUp(() -> {
            long next = left.isEmpty() ? 0 : left.poll();
            if (next == -2) {
                throw new IllegalStateException("broker did not answer");
            }
            return next;
        }, pause -> clock.addAndGet(pause.toNanos()), clock::get);
    }

    @Test
    void keptUpOnceTheLagStaysWithinTheBoundForTheSamplesAsked() throws InterruptedException {
        // a spike back over the bound starts the count again
        KeepingUp.Outcome outcome = over(900L, 500L, 50L, 40L, 300L, 30L, 20L, 10L, 999L)
                .await(100, 3, Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(outcome.keptUp()).isTrue();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(7));
        assertThat(outcome.lastLag()).isEqualTo(10);
        assertThat(outcome.describe()).contains("kept up").contains("7.0 s");
    }

    @Test
    void aLagThatCannotBeReadDoesNotCount() throws InterruptedException {
        KeepingUp.Outcome outcome = over(10L, -2L, 10L, 10L)
                .await(100, 2, Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(outcome.keptUp()).isTrue();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void givesUpAtItsBoundAndSaysTheFlipsMeasureABacklog() throws InterruptedException {
        KeepingUp.Outcome outcome = over(5000L, 4000L, 3000L, 2000L, 1000L)
                .await(100, 3, Duration.ofSeconds(1), Duration.ofSeconds(4));

        assertThat(outcome.keptUp()).isFalse();
        assertThat(outcome.waited()).isEqualTo(Duration.ofSeconds(4));
        assertThat(outcome.lastLag()).isEqualTo(1000);
        assertThat(outcome.describe()).contains("did NOT keep up").contains("backlog");
    }
}
