package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CommitPacer} on mock task contexts with a fake clock, one stream thread (the test's): when it asks every
 * task to commit, and how a long commit spaces the next request.
 */
class CommitPacerTest {

    private static final long T0 = 1_700_000_000_000L;

    private final CommitPacer pacer = new CommitPacer(true, Duration.ofMillis(100), Duration.ofMillis(10));
    private final MockProcessorContext<Object, Object> targets = new MockProcessorContext<>();
    private final MockProcessorContext<Object, Object> groups = new MockProcessorContext<>();
    private final List<CommitPacer.Registration> registrations = new ArrayList<>();

    private void registerBoth() {
        registrations.add(pacer.register(targets));
        registrations.add(pacer.register(groups));
    }

    /** One punctuation pass of the thread at {@code ms}, after it processed a record: each task ticks, targets first. */
    private void passAt(long ms) {
        registrations.forEach(CommitPacer.Registration::processed);
        idlePassAt(ms);
    }

    /** One punctuation pass of the thread at {@code ms} with no record processed since the last. */
    private void idlePassAt(long ms) {
        for (MockProcessorContext<Object, Object> task : List.of(targets, groups)) {
            task.setCurrentSystemTimeMs(T0 + ms);
            for (CapturedPunctuator p : task.scheduledPunctuators()) {
                if (!p.cancelled()) {
                    p.getPunctuator().punctuate(T0 + ms);
                }
            }
        }
    }

    private static boolean asked(MockProcessorContext<?, ?> task) {
        boolean asked = task.committed();
        task.resetCommit();
        return asked;
    }

    /** The instants of the passes, from {@code fromMs} to {@code toMs} every 10 ms, at which both tasks were asked. */
    private List<Long> requests(long fromMs, long toMs) {
        List<Long> at = new ArrayList<>();
        for (long ms = fromMs; ms <= toMs; ms += 10) {
            passAt(ms);
            boolean first = asked(targets);
            assertThat(asked(groups)).as("both tasks are asked together, at %d ms", ms).isEqualTo(first);
            if (first) {
                at.add(ms);
            }
        }
        return at;
    }

    @Test
    void everyTaskTicksOnTheWallClockAtThePacersPrecision() {
        registerBoth();
        for (MockProcessorContext<Object, Object> task : List.of(targets, groups)) {
            assertThat(task.scheduledPunctuators()).singleElement().satisfies(p -> {
                assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(10));
                assertThat(p.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
            });
        }
    }

    @Test
    void commitsStartOneIntervalApartAndEveryTaskOfTheThreadIsAsked() {
        registerBoth();
        // short commits: the thread ticks on every 10 ms
        assertThat(requests(0, 1_000)).containsExactly(0L, 100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L,
                1_000L);
    }

    @Test
    void aLongCommitLeavesHalfAnIntervalOfProcessingAfterIt() {
        registerBoth();
        assertThat(requests(0, 100)).containsExactly(0L, 100L);
        // the commit asked at 100 ms holds the thread until 160 ms: no tick in between
        assertThat(requests(160, 300)).as("not before 160 + 50 ms; then one interval on").containsExactly(210L);
        // a short commit again: back to one interval from the start of the last
        assertThat(requests(310, 420)).containsExactly(310L, 410L);
    }

    @Test
    void aCommitLongerThanTheIntervalIsNotFollowedByAnotherAtOnce() {
        registerBoth();
        assertThat(requests(0, 0)).containsExactly(0L);
        // a 400 ms commit: Kafka Streams' own interval would start the next at 500 ms, the pacer at 450
        assertThat(requests(400, 500)).containsExactly(450L);
    }

    @Test
    void aLongPauseThatIsNotTheCommitDoesNotDelayTheNext() {
        registerBoth();
        assertThat(requests(0, 40)).containsExactly(0L);
        // the thread works through a large batch from 40 to 90 ms, well after the commit of 0 ms ended
        assertThat(requests(90, 200)).containsExactly(100L, 200L);
    }

    @Test
    void aClosedTaskIsNeitherTickedNorAsked() {
        registerBoth();
        assertThat(requests(0, 0)).containsExactly(0L);
        registrations.get(1).close();
        assertThat(groups.scheduledPunctuators()).singleElement().satisfies(p -> assertThat(p.cancelled()).isTrue());
        for (long ms = 10; ms <= 100; ms += 10) {
            passAt(ms);
            assertThat(asked(targets)).as("at %d ms", ms).isEqualTo(ms == 100);
            assertThat(asked(groups)).as("at %d ms", ms).isFalse();
        }
    }

    @Test
    void anIdleThreadAsksNothingUntilItProcessesARecord() {
        registerBoth();
        assertThat(requests(0, 0)).containsExactly(0L);
        // Kafka Streams would commit the tasks' last offsets again in an offsets-only transaction every interval
        for (long ms = 10; ms <= 500; ms += 10) {
            idlePassAt(ms);
            assertThat(asked(targets)).as("idle at %d ms", ms).isFalse();
            assertThat(asked(groups)).as("idle at %d ms", ms).isFalse();
        }
        assertThat(requests(510, 510)).as("a record processed: due since 100 ms").containsExactly(510L);
    }

    @Test
    void aClockThatSteppedBackDoesNotStopTheRequests() {
        registerBoth();
        assertThat(requests(10_000, 10_000)).containsExactly(10_000L);
        assertThat(requests(5_000, 5_000)).containsExactly(5_000L);
        assertThat(requests(5_010, 5_100)).containsExactly(5_100L);
    }

    @Test
    void offSchedulesNothingAndAsksNothing() {
        CommitPacer.OFF.register(targets).close();
        assertThat(targets.scheduledPunctuators()).isEmpty();
        assertThat(targets.committed()).isFalse();
    }
}
