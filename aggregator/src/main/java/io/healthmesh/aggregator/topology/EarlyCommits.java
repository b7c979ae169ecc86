package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Asks Kafka Streams to commit as soon as a state event has been written, instead of letting it wait for the next
 * {@code commit.interval.ms}: under exactly-once an event is visible to {@code read_committed} consumers only once
 * its transaction commits, and waiting for the interval is most of the time between a probe and its event
 * (docs/OPERATIONS.md, "Detection latency and the commit interval").
 *
 * <p>Two rules keep the extra commits cheap:
 * <ul>
 *   <li><b>Only fresh input.</b> An event written for an input older than {@link #maxAgeMs} (the stream thread is
 *       catching up: a restart, a backlog, a storm it cannot keep up with) asks nothing: a few milliseconds do not
 *       matter to it, and commits would only slow the catch-up down. A thread that falls behind therefore stops asking
 *       by itself until it has caught up.</li>
 *   <li><b>At most one request per {@link #minGapMs} per stream thread</b> (a quarter of the commit interval, at
 *       most 25 ms). A request inside the gap is held back and sent by a wall-clock punctuation once the gap has
 *       passed (scheduled only while a request is held), so that a burst of events (a region going down) is
 *       committed in a few transactions rather than one per record, and none waits for the interval.</li>
 * </ul>
 * A commit covers every task of a stream thread, so the gap is kept per thread, not per task: one instance of this
 * class is shared by every processor of a topology and keeps the time of a thread's last request in a thread-local
 * (Kafka Streams calls a task's processors only from the thread that owns the task); what a task holds back is kept
 * by its {@link Requester}.
 */
final class EarlyCommits {

    /** The longest gap between two requests of a thread, whatever the commit interval. */
    static final long MAX_GAP_MS = 25;

    /** An instance that never asks (the {@code commit.on.change=false} setting). */
    static final EarlyCommits NEVER = new EarlyCommits(false, Duration.ofMillis(100));

    private final boolean enabled;
    private final long minGapMs;
    private final long maxAgeMs;
    private final ThreadLocal<ThreadState> perThread = ThreadLocal.withInitial(ThreadState::new);

    /** The time of a stream thread's last request. */
    private static final class ThreadState {
        private boolean requestedOnce;
        private long lastRequestMs;
    }

    /**
     * @param enabled whether to ask at all
     * @param commitInterval Kafka Streams' commit interval: the gap is a quarter of it (1 to 25 ms), the freshness
     *     limit twice it (at least 1 s)
     */
    EarlyCommits(boolean enabled, Duration commitInterval) {
        requireNonNull(commitInterval, "commitInterval");
        this.enabled = enabled;
        this.minGapMs = Math.max(1, Math.min(MAX_GAP_MS, commitInterval.toMillis() / 4));
        this.maxAgeMs = Math.max(1_000, 2 * commitInterval.toMillis());
    }

    long minGapMs() {
        return minGapMs;
    }

    long maxAgeMs() {
        return maxAgeMs;
    }

    /**
     * The requests of one processor of one task, from its {@code init}. A task's request must come from its own
     * context: Kafka Streams commits early only when a task that asked has something to commit.
     */
    Requester forTask(ProcessorContext<?, ?> context, AggregatorMetrics metrics) {
        return new Requester(context, metrics);
    }

    /** The early-commit requests of one processor's task. */
    final class Requester {

        private final ProcessorContext<?, ?> context;
        private final AggregatorMetrics metrics;
        /**
         * The punctuation that sends a held request, scheduled only while one is held: each punctuation that runs
         * makes Kafka Streams halve the records it processes per pass of its loop, and a thread with nothing held
         * has no reason to pay for one every few milliseconds.
         */
        private Cancellable sender;

        private Requester(ProcessorContext<?, ?> context, AggregatorMetrics metrics) {
            this.context = requireNonNull(context, "context");
            this.metrics = requireNonNull(metrics, "metrics");
        }

        /**
         * A state event (or a membership change another processor turns into one) was forwarded for an input stamped
         * {@code inputTimestampMs}: asks for a commit unless the input is old or the thread asked less than the gap
         * ago (then the request is held).
         */
        void eventWritten(long inputTimestampMs) {
            if (!enabled) {
                return;
            }
            long now = context.currentSystemTimeMs();
            if (now - inputTimestampMs > maxAgeMs) {
                return;
            }
            ThreadState state = perThread.get();
            if (mayAsk(state, now)) {
                ask(state, now);
            } else if (sender == null) {
                // every gap of wall clock; Kafka Streams runs due punctuations on every pass of its loop, idle or not
                sender = context.schedule(Duration.ofMillis(minGapMs), PunctuationType.WALL_CLOCK_TIME,
                        at -> sendHeld());
            }
        }

        /** Whether a request is held back by the gap. */
        boolean holding() {
            return sender != null;
        }

        /** Sends a request held back by the gap, once the gap has passed (the punctuation; tests call it). */
        void sendHeld() {
            if (sender == null) {
                return;
            }
            ThreadState state = perThread.get();
            long now = context.currentSystemTimeMs();
            if (mayAsk(state, now)) {
                ask(state, now);
            }
        }

        private void ask(ThreadState state, long now) {
            context.commit();
            state.requestedOnce = true;
            state.lastRequestMs = now;
            if (sender != null) {
                sender.cancel();
                sender = null;
            }
            metrics.earlyCommitRequested();
        }
    }

    private boolean mayAsk(ThreadState state, long now) {
        // a clock that stepped back (or a test driver's mocked one) must not silence the requests for good
        return !state.requestedOnce || now - state.lastRequestMs >= minGapMs || now < state.lastRequestMs;
    }
}
