package io.healthmesh.cli.demo;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class SwitchTest {

    /** A clock moved by hand. */
    static final class ManualClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void upThenDownRepeating() {
        ManualClock clock = new ManualClock();
        Switch s = new Switch(clock, Duration.ofSeconds(15), Duration.ofSeconds(10));
        assertThat(s.isUp()).isTrue();
        clock.advance(Duration.ofMillis(14_999));
        assertThat(s.isUp()).isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(s.isUp()).isFalse();
        clock.advance(Duration.ofSeconds(10));
        assertThat(s.isUp()).isTrue();
        clock.advance(Duration.ofSeconds(15));
        assertThat(s.isUp()).isFalse();
        assertThat(s.describe()).isEqualTo("up 15 s / down 10 s, repeating");
    }

    @Test
    void alwaysUpStaysUp() {
        ManualClock clock = new ManualClock();
        Switch s = Switch.alwaysUp(clock);
        clock.advance(Duration.ofDays(3650));
        assertThat(s.isUp()).isTrue();
        assertThat(s.describe()).isEqualTo("always up");
    }
}
