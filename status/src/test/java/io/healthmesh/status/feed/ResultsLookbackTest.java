package io.healthmesh.status.feed;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultsLookbackTest {

    private static final long NOW = 1_700_000_000_000L;
    private final ResultsLookback lookback = new ResultsLookback(Duration.ofMinutes(2));

    @Test
    void aResultIsTooOldOnlyWhenItsTimestampIsBeforeNowMinusTheLookback() {
        assertThat(lookback.cutoff(NOW)).isEqualTo(NOW - 120_000);
        assertThat(lookback.tooOld(NOW - 120_001, NOW)).isTrue();
        assertThat(lookback.tooOld(NOW - 120_000, NOW)).isFalse();
        assertThat(lookback.tooOld(NOW, NOW)).isFalse();
        assertThat(lookback.tooOld(NOW + 5_000, NOW)).as("a prober clock ahead").isFalse();
        assertThat(lookback.tooOld(0, NOW)).isTrue();
    }

    @Test
    void aRecordWithoutATimestampIsRead() {
        assertThat(lookback.tooOld(-1, NOW)).isFalse();
    }

    @Test
    void aPartitionBehindSeeksToTheFirstOffsetInTheWindow() {
        assertThat(ResultsLookback.seekTarget(100, 5_000L, 9_000)).isEqualTo(5_000);
    }

    @Test
    void withNoResultInTheWindowThePartitionSeeksToItsEnd() {
        assertThat(ResultsLookback.seekTarget(100, null, 9_000)).isEqualTo(9_000);
    }

    @Test
    void theSeekNeverGoesBackwards() {
        // the window's first offset was read already (the clock moved on between the batch and the lookup)
        assertThat(ResultsLookback.seekTarget(6_000, 5_000L, 9_000)).isEqualTo(6_000);
        assertThat(ResultsLookback.seekTarget(9_500, null, 9_000)).isEqualTo(9_500);
    }

    @Test
    void theLookbackMustBePositive() {
        assertThatThrownBy(() -> new ResultsLookback(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lookback: PT0S (expected: positive)");
    }
}
