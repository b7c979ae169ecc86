package io.healthmesh.notifier.deliver;

import io.healthmesh.core.retry.Backoff;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeliveryRulesTest {

    @Test
    void backoffDoublesUpToItsMaximum() {
        Backoff b = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
        assertThat(b.after(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(b.after(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.after(4)).isEqualTo(Duration.ofSeconds(4));
        assertThat(b.after(7)).isEqualTo(Duration.ofSeconds(30));
        assertThat(b.after(1_000)).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("(expected: 0 < initial <= max)");
    }

    @Test
    void statusCodesSayWhetherToRetry() {
        assertThat(Attempt.ofStatus(200)).isEqualTo(Attempt.DELIVERED);
        assertThat(Attempt.ofStatus(204)).isEqualTo(Attempt.DELIVERED);
        assertThat(Attempt.ofStatus(503)).isEqualTo(Attempt.RETRY);
        assertThat(Attempt.ofStatus(429)).isEqualTo(Attempt.RETRY);
        assertThat(Attempt.ofStatus(408)).isEqualTo(Attempt.RETRY);
        assertThat(Attempt.ofStatus(400)).isEqualTo(Attempt.REJECTED);
        assertThat(Attempt.ofStatus(404)).isEqualTo(Attempt.REJECTED);
        assertThat(Attempt.ofStatus(301)).isEqualTo(Attempt.REJECTED);
    }
}
