package io.healthmesh.aggregator.topology;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StalenessScheduleTest {

    private static final int ALL = Integer.MAX_VALUE;

    @Test
    void aBatchTakesAtMostItsSizeAndLeavesTheRestDue() {
        StalenessSchedule s = new StalenessSchedule();
        for (int i = 0; i < 5; i++) {
            s.schedule("t-" + i, 100 + i);
        }
        assertThat(s.takeDue(1_000, 2)).containsExactly("t-0", "t-1");
        assertThat(s.hasDue(1_000)).isTrue();
        assertThat(s.takeDue(1_000, 2)).containsExactly("t-2", "t-3");
        assertThat(s.takeDue(1_000, 2)).containsExactly("t-4");
        assertThat(s.hasDue(1_000)).isFalse();
    }

    @Test
    void aTargetIsTakenOnceWhenDueAndNotBefore() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("a", 100);
        s.schedule("b", 200);
        assertThat(s.takeDue(99, ALL)).isEmpty();
        assertThat(s.takeDue(150, ALL)).containsExactly("a");
        assertThat(s.takeDue(150, ALL)).isEmpty();
        assertThat(s.takeDue(1_000, ALL)).containsExactly("b");
        assertThat(s.takeDue(1_000, ALL)).as("taken targets wait to be scheduled again").isEmpty();
    }

    @Test
    void aDueTimeMovedLaterIsHonouredWithoutAnotherEntryPerMove() {
        StalenessSchedule s = new StalenessSchedule();
        for (int i = 0; i < 1_000; i++) {
            s.schedule("a", 100 + i * 10L); // a result per record moves it later
        }
        assertThat(s.queued()).isEqualTo(1);
        assertThat(s.takeDue(5_000, ALL)).isEmpty(); // the entry at 100 came up: queued again for 10,090
        assertThat(s.takeDue(10_089, ALL)).isEmpty();
        assertThat(s.takeDue(10_090, ALL)).containsExactly("a");
        assertThat(s.queued()).isZero();
    }

    @Test
    void aDueTimeMovedEarlierReplacesTheQueuedOne() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("a", 1_000);
        s.schedule("a", 100);
        assertThat(s.takeDue(100, ALL)).containsExactly("a");
        s.schedule("a", 5_000);
        assertThat(s.takeDue(1_000, ALL)).as("the replaced entry is dropped").isEmpty();
        assertThat(s.takeDue(5_000, ALL)).containsExactly("a");
        assertThat(s.queued()).isZero();
    }

    @Test
    void removedAndNeverDueTargetsAreNotTaken() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("gone", 10);
        s.schedule("never", 10);
        s.remove("gone");
        s.schedule("never", Long.MAX_VALUE);
        assertThat(s.takeDue(Long.MAX_VALUE - 1, ALL)).isEmpty();
        assertThat(s.size()).isEqualTo(1);
        s.schedule("never", 20);
        assertThat(s.takeDue(20, ALL)).containsExactly("never");
    }

    @Test
    void theQueueStaysBoundedByTheTargets() {
        StalenessSchedule s = new StalenessSchedule();
        long now = 0;
        for (int round = 0; round < 200; round++) {
            now += 1_000;
            for (int i = 0; i < 100; i++) {
                s.schedule("t-" + i, now + 3_000 + (i % 7) * 100);
            }
            s.takeDue(now, ALL);
        }
        assertThat(s.queued()).isLessThanOrEqualTo(100);
    }
}
