package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * With {@code commit.paced} (off by default), starts a stream thread's commits one commit interval apart, counted
 * from the start of one commit to the start of the next. Kafka Streams counts its {@code commit.interval.ms} from
 * the <em>end</em> of the previous commit, so its commits come one interval plus one commit's duration apart, and an
 * event waits up to that long, plus its own commit, before {@code read_committed} consumers see it: on a loaded
 * machine, where a commit takes tens of milliseconds, noticeably fewer commits than the interval suggests. With
 * this class an event waits at most one interval for its commit to start (docs/OPERATIONS.md, "Detection latency
 * and the commit interval"; the trade-off in docs/BENCHMARKS.md, "Detection and probe -> event").
 *
 * <p>How: every task of the topology ticks with a wall-clock punctuation (every {@code tick}); on the first tick of
 * a thread that finds an interval gone since the thread's last request, the pacer asks every task of that thread to
 * commit ({@link ProcessorContext#commit()}: Kafka Streams commits a thread's tasks together right after the
 * punctuations, still exactly-once, and only when a task has something to commit). Kafka Streams' own interval is
 * then a backstop ({@code AggregatorConfig.streamsProperties}).
 *
 * <p>Only a thread that processed a record, or whose staleness check changed a state, since its last request asks
 * ({@link Registration#processed()}): Kafka
 * Streams' own commit sends a task's last offsets again whenever a punctuation ran, and the ticks are punctuations,
 * so an idle thread asking every interval would commit an offsets-only transaction every interval.
 *
 * <p>One guard keeps a slow commit from starving processing: when the thread stops ticking for longer than
 * {@code busyGap} right after a request (that pause is the commit itself), the next request waits for half an
 * interval after it ends. Commits up to {@code busyGap} long are paced exactly; a longer commit {@code c} gives a
 * period of {@code max(interval, c + interval / 2)}, against Kafka Streams' {@code interval + c}.
 *
 * <p>A stream thread calls its tasks' processors only from itself, so the per-thread state lives in a thread-local,
 * as in {@link EarlyCommits}; one instance serves every processor of a topology.
 */
final class CommitPacer {

    /** A pacer that never asks: Kafka Streams' own interval decides ({@code commit.paced=false}). */
    static final CommitPacer OFF = new CommitPacer(false, Duration.ofMillis(100), Duration.ofMillis(10));

    private final boolean enabled;
    private final long intervalMs;
    private final Duration tick;
    private final long busyGapMs;
    private final ThreadLocal<ThreadPace> perThread = ThreadLocal.withInitial(ThreadPace::new);

    /** One stream thread's tasks and the times of its last request and tick. */
    private static final class ThreadPace {
        final Set<ProcessorContext<?, ?>> tasks = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean requestedOnce;
        long lastRequestMs;
        long lastTickMs;
        /** Looking for the pause of the commit that the last request started. */
        boolean watching;
        /** No request before this: half an interval after a long commit. */
        long notBeforeMs = Long.MIN_VALUE;
        /** A record was processed since the last request. */
        boolean processed;
    }

    /**
     * @param enabled whether to pace at all
     * @param commitInterval the interval between the starts of two commits
     * @param tick how often each task checks whether a commit is due: the precision of the pacing
     */
    CommitPacer(boolean enabled, Duration commitInterval, Duration tick) {
        this.enabled = enabled;
        this.intervalMs = Math.max(1, requireNonNull(commitInterval, "commitInterval").toMillis());
        this.tick = requireNonNull(tick, "tick");
        this.busyGapMs = Math.max(2 * Math.max(1, tick.toMillis()), intervalMs / 4);
    }

    /**
     * Registers a task (from a processor's {@code init}); the returned handle unregisters it (from {@code close}, or
     * before the same processor is initialised again).
     */
    Registration register(ProcessorContext<?, ?> context) {
        requireNonNull(context, "context");
        if (!enabled) {
            return Registration.NONE;
        }
        ThreadPace pace = perThread.get();
        pace.tasks.add(context);
        Cancellable ticking = context.schedule(tick, PunctuationType.WALL_CLOCK_TIME, ts -> tick(context));
        return new Registration() {
            @Override
            public void processed() {
                pace.processed = true;
            }

            @Override
            public void close() {
                ticking.cancel();
                pace.tasks.remove(context);
            }
        };
    }

    /** One task's tick: asks every task of the thread to commit when an interval has gone since the last request. */
    void tick(ProcessorContext<?, ?> context) {
        long now = context.currentSystemTimeMs();
        ThreadPace pace = perThread.get();
        long previousTickMs = pace.lastTickMs;
        pace.lastTickMs = now;
        if (pace.watching) {
            if (now - previousTickMs > busyGapMs && previousTickMs - pace.lastRequestMs <= busyGapMs) {
                // the thread paused right after the request: that was the commit, and it was long
                pace.notBeforeMs = now + intervalMs / 2;
                pace.watching = false;
            } else if (now - pace.lastRequestMs > busyGapMs) {
                pace.watching = false; // the thread kept ticking: the commit was short
            }
        }
        // a clock that stepped back must not stop the requests for good
        boolean due = !pace.requestedOnce || now - pace.lastRequestMs >= intervalMs || now < pace.lastRequestMs;
        if (!due || !pace.processed || (now < pace.notBeforeMs && pace.notBeforeMs - now <= intervalMs)) {
            return;
        }
        for (ProcessorContext<?, ?> task : pace.tasks) {
            task.commit();
        }
        pace.requestedOnce = true;
        pace.lastRequestMs = now;
        pace.watching = true;
        pace.processed = false;
    }

    /** A task's registration with the pacer. */
    interface Registration extends AutoCloseable {

        Registration NONE = new Registration() {
            @Override
            public void processed() {
            }

            @Override
            public void close() {
            }
        };

        /**
         * The task processed a record or wrote events from a punctuation: its thread has something to commit (called
         * per record, so it is cheap).
         */
        void processed();

        @Override
        void close();
    }
}
