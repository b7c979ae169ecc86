package io.healthmesh.aggregator.domain;

import org.junit.jupiter.api.Test;

import static io.healthmesh.aggregator.domain.UnknownTargetHold.DEFINITIONS_AHEAD_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnknownTargetHoldTest {

    private static final long T = 1_700_000_000_000L;
    private final UnknownTargetHold hold = new UnknownTargetHold(600_000, 10);

    @Test
    void aResultWaitsWhileTheDefinitionsReadAreNotWellPastIt() {
        // a fleet applied at once: the definitions read so far were all written before the result
        assertThat(hold.settled(T + 20_000, T + 21_000, T + 200_000, T + 19_000)).isFalse();
        assertThat(hold.settled(T + 20_000, T + 21_000, T + 200_000, T + 20_000 + DEFINITIONS_AHEAD_MS - 1))
                .isFalse();
        assertThat(hold.settled(T, T, T + 1, Long.MIN_VALUE)).as("no definition read yet").isFalse();
    }

    @Test
    void definitionsReadWellPastTheResultSettleIt() {
        assertThat(hold.settled(T, T, T + 1, T + DEFINITIONS_AHEAD_MS)).isTrue();
        assertThat(hold.settled(Long.MAX_VALUE - 1, T, T + 1, T)).as("no overflow").isFalse();
    }

    @Test
    void theLongestHoldSettlesWhateverElseHolds() {
        assertThat(hold.settled(T, T, T + 599_999, T - 1)).isFalse();
        assertThat(hold.settled(T, T, T + 600_000, T - 1)).isTrue();
    }

    @Test
    void aResultAnswersADefinitionStampedAtOrBeforeIt() {
        assertThat(UnknownTargetHold.answers(T, T)).isTrue();
        assertThat(UnknownTargetHold.answers(T + 1, T)).isTrue();
        assertThat(UnknownTargetHold.answers(T - 1, T)).isFalse();
    }

    @Test
    void boundsAndTheSwitchOff() {
        assertThat(UnknownTargetHold.DEFAULT.enabled()).isTrue();
        assertThat(UnknownTargetHold.NONE.enabled()).isFalse();
        assertThat(new UnknownTargetHold(1_000, 0).enabled()).isFalse();
        assertThatThrownBy(() -> new UnknownTargetHold(-1, 1)).hasMessageContaining("maxHoldMs: -1");
        assertThatThrownBy(() -> new UnknownTargetHold(UnknownTargetHold.MAX_MAX_HOLD_MS + 1, 1))
                .hasMessageContaining("expected: 0..3600000");
        assertThatThrownBy(() -> new UnknownTargetHold(1, -1)).hasMessageContaining("maxHeldPerTask: -1");
    }
}
