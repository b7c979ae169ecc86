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
    void anEventForFreshInputAsksForACommitAtOnce() {
        at(0);
        task.eventWritten(T0 - 40);
        assertThat(asked()).isTrue();
        assertThat(context.scheduledPunctuators()).as("nothing is scheduled").isEmpty();
    }

    @Test
    void atMostOneRequestPerIntervalTheRestIsLeftToTheRegularCommit() {
        at(0);
        task.eventWritten(T0);
        assertThat(asked()).isTrue();
        at(99);
        task.eventWritten(T0 + 99);
        assertThat(asked()).as("less than an interval after the last request").isFalse();
        at(100);
        task.eventWritten(T0 + 100);
        assertThat(asked()).as("an interval after it").isTrue();
    }

    @Test
    void aBurstOfEventsAsksOncePerInterval() {
        int asks = 0;
        for (int ms = 0; ms < 1_000; ms++) {
            at(ms);
            task.eventWritten(T0 + ms);
            asks += asked() ? 1 : 0;
        }
        assertThat(asks).isEqualTo(10);
    }

    @Test
    void anEventForOldInputDoesNotAsk() {
        at(5_000);
        task.eventWritten(T0 + 5_000 - 101);
        assertThat(asked()).as("a thread that is behind does not ask").isFalse();
        task.eventWritten(T0 + 5_000 - 100);
        assertThat(asked()).as("exactly at the freshness limit").isTrue();
    }

    @Test
    void theGroupProcessorAllowsItsInputOneCommitMore() {
        MockProcessorContext<Object, Object> groups = new MockProcessorContext<>();
        EarlyCommits.Requester groupTask = early.afterRepartition(groups, new AggregatorMetrics(groups.metrics()));
        groups.setCurrentSystemTimeMs(T0 + 5_000);
        groupTask.eventWritten(T0 + 5_000 - 201);
        assertThat(asked(groups)).isFalse();
        groupTask.eventWritten(T0 + 5_000 - 200);
        assertThat(asked(groups)).isTrue();
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
    void theGapIsSharedByTheTasksOfAThreadNotAcrossThreads() throws InterruptedException {
        MockProcessorContext<Object, Object> other = new MockProcessorContext<>();
        EarlyCommits.Requester otherTask = early.forTask(other, new AggregatorMetrics(other.metrics()));
        at(0);
        other.setCurrentSystemTimeMs(T0 + 5);
        task.eventWritten(T0);
        assertThat(asked()).isTrue();
        otherTask.eventWritten(T0 + 5);
        assertThat(asked(other)).as("another task of the same thread, inside the interval").isFalse();

        MockProcessorContext<Object, Object> elsewhere = new MockProcessorContext<>();
        elsewhere.setCurrentSystemTimeMs(T0 + 5);
        AtomicBoolean askedElsewhere = new AtomicBoolean();
        Thread thread = new Thread(() -> {
            early.forTask(elsewhere, new AggregatorMetrics(elsewhere.metrics())).eventWritten(T0 + 5);
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
        EarlyCommits.NEVER.forTask(off, new AggregatorMetrics(off.metrics())).eventWritten(T0);
        assertThat(asked(off)).isFalse();
    }
}
