package io.healthmesh.aggregator.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The clock a task judges silence by: how far it has read its input (BEHAVIOUR.md section 6). */
class ReadClockTest {

    private static final long START = 1_000_000;
    private static final long STEP = 2_000;
    private static final long MAX_BEHIND = 600_000;

    @Test
    void startsAtTheTaskStartAndRecordsOlderThanThatDoNotMoveIt() {
        ReadClock clock = new ReadClock(START, STEP, MAX_BEHIND);
        assertThat(clock.nowMs()).isEqualTo(START);
        clock.read(START - 50_000, START + 30_000);
        assertThat(clock.nowMs()).isEqualTo(START);
        assertThat(clock.behindMs(START + 30_000)).isEqualTo(30_000);
    }

    @Test
    void followsTheTimestampsOfWhatIsReadButNeverPassesTheWallClockNorGoesBack() {
        ReadClock clock = new ReadClock(START, STEP, MAX_BEHIND);
        clock.read(START + 5_000, START + 60_000);
        assertThat(clock.nowMs()).isEqualTo(START + 5_000);
        clock.read(START + 4_000, START + 60_000);
        assertThat(clock.nowMs()).as("never back").isEqualTo(START + 5_000);
        clock.read(START + 90_000, START + 60_000);
        assertThat(clock.nowMs()).as("a record from the future counts as now").isEqualTo(START + 60_000);
    }

    @Test
    void aTaskBusyReadingGainsNothingAtItsPunctuations() {
        ReadClock clock = new ReadClock(START, STEP, MAX_BEHIND);
        for (long wall = START + 1_000; wall <= START + 100_000; wall += 1_000) {
            clock.read(START - 100_000 + wall - START, wall); // reads right up to each punctuation
            clock.tick(wall);
        }
        assertThat(clock.nowMs()).isEqualTo(START);
    }

    @Test
    void aTaskWithNothingToReadCountsTheTimeSinceItsLastReadInBoundedSteps() {
        ReadClock clock = new ReadClock(START, STEP, MAX_BEHIND);
        clock.read(START + 500, START + 500);
        assertThat(clock.tick(START + 1_000)).as("idle since the read at 500").isEqualTo(START + 1_000);
        assertThat(clock.tick(START + 2_000)).isEqualTo(START + 2_000);
        assertThat(clock.tick(START + 62_000)).as("a stall: one bounded step").isEqualTo(START + 2_000 + STEP);
        assertThat(clock.tick(START + 63_000)).isEqualTo(START + 2_000 + STEP + 1_000);
    }

    @Test
    void neverFurtherBehindTheWallClockThanTheBound() {
        ReadClock clock = new ReadClock(START, STEP, MAX_BEHIND);
        clock.read(START - 1, START + MAX_BEHIND + 10_000);
        assertThat(clock.nowMs()).isEqualTo(START + 10_000);
        ReadClock wall = new ReadClock(START, STEP, 0);
        wall.read(START - 10_000, START + 7_000);
        assertThat(wall.nowMs()).as("0: the wall clock").isEqualTo(START + 7_000);
        assertThat(wall.tick(START + 8_000)).isEqualTo(START + 8_000);
    }

    @Test
    void refusesBadBounds() {
        assertThatThrownBy(() -> new ReadClock(START, 0, MAX_BEHIND)).hasMessage("maxIdleStepMs: 0 (expected: 1 or more)");
        assertThatThrownBy(() -> new ReadClock(START, STEP, -1)).hasMessage("maxBehindMs: -1 (expected: 0 or more)");
        assertThatThrownBy(() -> new StalenessRule(3, -1))
                .hasMessage("staleness.max.behind.ms: -1 (expected: 0..86400000)");
    }
}
