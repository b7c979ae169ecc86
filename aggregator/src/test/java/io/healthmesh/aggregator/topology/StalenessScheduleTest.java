package io.healthmesh.aggregator.topology;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StalenessScheduleTest {

    @Test
    void aTargetIsTakenOnceWhenDueAndNotBefore() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("a", 100);
        s.schedule("b", 200);
        assertThat(s.takeDue(99)).isEmpty();
        assertThat(s.takeDue(150)).containsExactly("a");
        assertThat(s.takeDue(150)).isEmpty();
        assertThat(s.takeDue(1_000)).containsExactly("b");
        assertThat(s.takeDue(1_000)).as("taken targets wait to be scheduled again").isEmpty();
    }

    @Test
    void aDueTimeMovedLaterIsHonouredWithoutAnotherEntryPerMove() {
        StalenessSchedule s = new StalenessSchedule();
        for (int i = 0; i < 1_000; i++) {
            s.schedule("a", 100 + i * 10L); // a result per record moves it later
        }
        assertThat(s.queued()).isEqualTo(1);
        assertThat(s.takeDue(5_000)).isEmpty(); // the entry at 100 came up: queued again for 10,090
        assertThat(s.takeDue(10_089)).isEmpty();
        assertThat(s.takeDue(10_090)).containsExactly("a");
        assertThat(s.queued()).isZero();
    }

    @Test
    void aDueTimeMovedEarlierReplacesTheQueuedOne() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("a", 1_000);
        s.schedule("a", 100);
        assertThat(s.takeDue(100)).containsExactly("a");
        s.schedule("a", 5_000);
        assertThat(s.takeDue(1_000)).as("the replaced entry is dropped").isEmpty();
        assertThat(s.takeDue(5_000)).containsExactly("a");
        assertThat(s.queued()).isZero();
    }

    @Test
    void removedAndNeverDueTargetsAreNotTaken() {
        StalenessSchedule s = new StalenessSchedule();
        s.schedule("gone", 10);
        s.schedule("never", 10);
        s.remove("gone");
        s.schedule("never", Long.MAX_VALUE);
        assertThat(s.takeDue(Long.MAX_VALUE - 1)).isEmpty();
        assertThat(s.size()).isEqualTo(1);
        s.schedule("never", 20);
        assertThat(s.takeDue(20)).containsExactly("never");
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
            s.takeDue(now);
        }
        assertThat(s.queued()).isLessThanOrEqualTo(100);
    }
}
