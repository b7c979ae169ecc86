package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Asks Kafka Streams to commit as soon as a state event has been written, instead of letting it wait for the next
 * {@code commit.interval.ms}: under exactly-once an event is visible to {@code read_committed} consumers only once
 * its transaction commits, and waiting for the interval is most of the time between a probe and its event
 * (docs/OPERATIONS.md, "Detection latency and the commit interval").
 *
 * <p>Two rules bound what the extra commits cost, because a commit is not cheap (a flush, two round trips to the
 * transaction coordinator, a marker on every partition written) and a stream thread that commits processes nothing:
 * <ul>
 *   <li><b>At most one request per commit interval per stream thread.</b> An event written less than an interval
 *       after the thread's last request asks nothing: the regular commit takes it within an interval, as it would
 *       without this class. A thread commits at most twice as often as the interval alone makes it, however many
 *       events it writes; an event that is alone in its interval (the usual case: one backend fails) is committed at
 *       once. Measured with a request allowed every quarter interval, a saturated 2-core machine spent so much of
 *       its stream thread on commits that events came later than without any early commit.</li>
 *   <li><b>Only fresh input.</b> An event written for an input older than the commit interval (for the group
 *       processor, whose input already waited for one commit, twice that) asks nothing: the thread is behind, a few
 *       milliseconds do not matter to its events and a commit would put it further behind.</li>
 * </ul>
 * A commit covers every task of a stream thread, so the gap is kept per thread, not per task: one instance of this
 * class is shared by every processor of a topology and keeps the time of a thread's last request in a thread-local
 * (Kafka Streams calls a task's processors only from the thread that owns the task). A task's request goes through
 * its own context: Kafka Streams commits early only when a task that asked has something to commit.
 */
final class EarlyCommits {

    /** An instance that never asks (the {@code commit.on.change=false} setting). */
    static final EarlyCommits NEVER = new EarlyCommits(false, Duration.ofMillis(100));

    private final boolean enabled;
    private final long intervalMs;
    private final ThreadLocal<ThreadState> perThread = ThreadLocal.withInitial(ThreadState::new);

    /** The time of a stream thread's last request. */
    private static final class ThreadState {
        private boolean requestedOnce;
        private long lastRequestMs;
    }

    /**
     * @param enabled whether to ask at all
     * @param commitInterval Kafka Streams' commit interval: the least time between two requests of a thread, and the
     *     age up to which input counts as fresh
     */
    EarlyCommits(boolean enabled, Duration commitInterval) {
        requireNonNull(commitInterval, "commitInterval");
        this.enabled = enabled;
        this.intervalMs = Math.max(1, commitInterval.toMillis());
    }

    /** The requests of the target processor of one task, from its {@code init}. */
    Requester forTask(ProcessorContext<?, ?> context, AggregatorMetrics metrics) {
        return new Requester(context, metrics, intervalMs);
    }

    /** As {@link #forTask} for the group processor: its input, read from the repartition, waited for one commit. */
    Requester afterRepartition(ProcessorContext<?, ?> context, AggregatorMetrics metrics) {
        return new Requester(context, metrics, 2 * intervalMs);
    }

    /** The early-commit requests of one processor's task. */
    final class Requester {

        private final ProcessorContext<?, ?> context;
        private final AggregatorMetrics metrics;
        private final long inputMaxAgeMs;

        private Requester(ProcessorContext<?, ?> context, AggregatorMetrics metrics, long inputMaxAgeMs) {
            this.context = requireNonNull(context, "context");
            this.metrics = requireNonNull(metrics, "metrics");
            this.inputMaxAgeMs = inputMaxAgeMs;
        }

        /**
         * A state event (or a membership change the group processor turns into one) was forwarded for an input
         * stamped {@code inputTimestampMs}: asks for a commit unless the input is old or the thread asked less than
         * an interval ago.
         */
        void eventWritten(long inputTimestampMs) {
            if (!enabled) {
                return;
            }
            long now = context.currentSystemTimeMs();
            if (now - inputTimestampMs > inputMaxAgeMs) {
                return;
            }
            ThreadState state = perThread.get();
            // a clock that stepped back (or a test driver's mocked one) must not silence the requests for good
            if (state.requestedOnce && now - state.lastRequestMs < intervalMs && now >= state.lastRequestMs) {
                return;
            }
            context.commit();
            state.requestedOnce = true;
            state.lastRequestMs = now;
            metrics.earlyCommitRequested();
        }
    }
}
