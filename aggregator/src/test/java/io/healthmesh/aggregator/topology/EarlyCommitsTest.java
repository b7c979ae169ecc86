package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link EarlyCommits} on mock contexts with a fake clock: when it asks Kafka Streams to commit, and when not. */
class EarlyCommitsTest {

    private static final long T0 = 1_700_000_000_000L;

    private final EarlyCommits early = new EarlyCommits(true, Duration.ofMillis(100));
    private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    private final EarlyCommits.Requester task = early.forTask(context, new AggregatorMetrics(context.metrics()));

    private static boolean asked(MockProcessorContext<?, ?> context) {
        boolean asked = context.committed();
        context.resetCommit();
        return asked;
    }

    private boolean asked() {
        return asked(context);
    }

    private void at(long ms) {
        context.setCurrentSystemTimeMs(T0 + ms);
    }

    @Test
    void theGapIsAQuarterOfTheIntervalAtMost25MsAndFreshMeansTwiceTheIntervalAtLeastOneSecond() {
        assertThat(early.minGapMs()).isEqualTo(25);
        assertThat(early.maxAgeMs()).isEqualTo(1_000);
        EarlyCommits slow = new EarlyCommits(true, Duration.ofSeconds(30));
        assertThat(slow.minGapMs()).isEqualTo(25);
        assertThat(slow.maxAgeMs()).isEqualTo(60_000);
        assertThat(new EarlyCommits(true, Duration.ofMillis(40)).minGapMs()).isEqualTo(10);
        assertThat(new EarlyCommits(true, Duration.ofMillis(2)).minGapMs()).isEqualTo(1);
    }

    @Test
    void thePunctuationThatSendsAHeldRequestIsScheduledOnlyWhileOneIsHeld() {
        at(0);
        task.eventWritten(T0);
        assertThat(context.scheduledPunctuators()).as("nothing held: no punctuation").isEmpty();
        at(10);
        task.eventWritten(T0 + 10);
        task.eventWritten(T0 + 10);
        assertThat(task.holding()).isTrue();
        assertThat(context.scheduledPunctuators()).singleElement()
                .satisfies(p -> assertThat(p.getInterval()).isEqualTo(Duration.ofMillis(25)));
        at(30);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(T0 + 30);
        assertThat(task.holding()).isFalse();
        assertThat(context.scheduledPunctuators().get(0).cancelled()).as("cancelled once sent").isTrue();
    }

    @Test
    void anEventForFreshInputAsksForACommitAtOnce() {
        at(0);
        task.eventWritten(T0 - 40);
        assertThat(asked()).isTrue();
    }

    @Test
    void anEventInsideTheGapIsHeldAndSentByThePunctuationAfterIt() {
        at(0);
        task.eventWritten(T0);
        assertThat(asked()).isTrue();
        at(10);
        task.eventWritten(T0 + 10);
        assertThat(asked()).as("inside the 25 ms gap").isFalse();
        at(20);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(T0 + 20);
        assertThat(asked()).as("still inside the gap").isFalse();
        at(25);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(T0 + 25);
        assertThat(asked()).as("the held request, once the gap has passed").isTrue();
        at(60);
        task.sendHeld();
        assertThat(asked()).as("nothing held any more").isFalse();
    }

    @Test
    void withoutEventsNothingIsAsked() {
        for (int ms = 0; ms < 1_000; ms += 10) {
            at(ms);
            task.sendHeld();
            assertThat(asked()).isFalse();
        }
    }

    @Test
    void anEventForOldInputDoesNotAskNorHold() {
        at(5_000);
        task.eventWritten(T0 + 5_000 - 1_001);
        assertThat(asked()).as("a thread catching up does not ask").isFalse();
        at(6_000);
        task.sendHeld();
        assertThat(asked()).isFalse();
        task.eventWritten(T0 + 6_000 - 1_000);
        assertThat(asked()).as("exactly at the freshness limit").isTrue();
    }

    @Test
    void aBurstOfEventsAsksOncePerGap() {
        int asks = 0;
        for (int ms = 0; ms < 1_000; ms++) {
            at(ms);
            task.eventWritten(T0 + ms);
            task.sendHeld();
            asks += asked() ? 1 : 0;
        }
        assertThat(asks).isEqualTo(40);
    }

    @Test
    void aClockThatSteppedBackDoesNotSilenceIt() {
        at(10_000);
        task.eventWritten(T0 + 10_000);
        assertThat(asked()).isTrue();
        at(0);
        task.eventWritten(T0);
        assertThat(asked()).isTrue();
    }

    @Test
    void theGapIsSharedByTheTasksOfAThreadAndEachTaskSendsWhatItHeld() throws InterruptedException {
        MockProcessorContext<Object, Object> other = new MockProcessorContext<>();
        EarlyCommits.Requester otherTask = early.forTask(other, new AggregatorMetrics(other.metrics()));
        at(0);
        other.setCurrentSystemTimeMs(T0 + 5);
        task.eventWritten(T0);
        assertThat(asked()).isTrue();
        otherTask.eventWritten(T0 + 5);
        assertThat(asked(other)).as("another task of the same thread, inside the gap").isFalse();
        at(30);
        task.sendHeld();
        assertThat(asked()).as("this task held nothing").isFalse();
        other.setCurrentSystemTimeMs(T0 + 30);
        otherTask.sendHeld();
        assertThat(asked(other)).as("the other task sends what it held, through its own context").isTrue();

        MockProcessorContext<Object, Object> elsewhere = new MockProcessorContext<>();
        elsewhere.setCurrentSystemTimeMs(T0 + 31);
        AtomicBoolean askedElsewhere = new AtomicBoolean();
        Thread thread = new Thread(() -> {
            early.forTask(elsewhere, new AggregatorMetrics(elsewhere.metrics())).eventWritten(T0 + 31);
            askedElsewhere.set(elsewhere.committed());
        });
        thread.start();
        thread.join(10_000);
        assertThat(askedElsewhere).as("another stream thread has its own gap").isTrue();
    }

    @Test
    void disabledNeverAsks() {
        MockProcessorContext<Object, Object> off = new MockProcessorContext<>();
        off.setCurrentSystemTimeMs(T0);
        EarlyCommits.Requester never = EarlyCommits.NEVER.forTask(off, new AggregatorMetrics(off.metrics()));
        never.eventWritten(T0);
        never.sendHeld();
        assertThat(asked(off)).isFalse();
    }
}
