package io.healthmesh.probe;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the prober's own event loops: each loop runs a small task every {@link #PERIOD_MS} ms and records how
 * much later than planned it ran (a stall: a busy loop, a GC pause, a CPU taken by someone else). Probes ask
 * whether their loop stalled while they ran ({@link Stalls#overlapNanos}); the worker reads the worst recent
 * stall for its own health ({@link #takeWorstMicros}).
 */
final class LoopWatch implements AutoCloseable {

    static final long PERIOD_MS = 50;
    /** Lateness below this is timer noise, not a stall. */
    static final long MIN_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final Map<EventExecutor, Stalls> byLoop = new IdentityHashMap<>();
    private final AtomicLong worstNanos = new AtomicLong();
    private volatile boolean closed;

    private LoopWatch() {
    }

    /** A watch of no loop. */
    static LoopWatch none() {
        return new LoopWatch();
    }

    /** Starts watching every loop of {@code group}. */
    static LoopWatch start(EventExecutorGroup group) {
        LoopWatch watch = new LoopWatch();
        for (EventExecutor loop : group) {
            Stalls stalls = new Stalls();
            watch.byLoop.put(loop, stalls);
            watch.tick(loop, stalls);
        }
        return watch;
    }

    /** The stalls of {@code loop}, or {@link Stalls#NONE} for a loop not watched. */
    Stalls of(EventExecutor loop) {
        Stalls stalls = byLoop.get(loop);
        return stalls == null ? Stalls.NONE : stalls;
    }

    /** The worst lateness seen on any loop since the previous call, in microseconds; resets it. */
    long takeWorstMicros() {
        return TimeUnit.NANOSECONDS.toMicros(worstNanos.getAndSet(0));
    }

    private void tick(EventExecutor loop, Stalls stalls) {
        if (closed || loop.isShuttingDown()) {
            return;
        }
        long planned = loop.ticker().nanoTime() + TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
        try {
            loop.schedule(() -> {
                long now = loop.ticker().nanoTime();
                long late = now - planned;
                if (late >= MIN_STALL_NANOS) {
                    stalls.record(now, late);
                }
                worstNanos.accumulateAndGet(Math.max(0, late), Math::max);
                tick(loop, stalls);
            }, PERIOD_MS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // the loop is shutting down: nothing left to watch
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    /** The recent stalls of one loop. Confined to that loop: record and read there only. */
    static final class Stalls {

        static final Stalls NONE = new Stalls();
        private static final int SIZE = 16;

        private final long[] ends = new long[SIZE];
        private final long[] lengths = new long[SIZE];
        private int next;

        void record(long endNanos, long lengthNanos) {
            if (this == NONE) {
                return;
            }
            ends[next] = endNanos;
            lengths[next] = lengthNanos;
            next = (next + 1) % SIZE;
        }

        /** The longest part of a recorded stall that fell after {@code sinceNanos}. */
        long overlapNanos(long sinceNanos) {
            long worst = 0;
            for (int i = 0; i < SIZE; i++) {
                if (lengths[i] > 0 && ends[i] > sinceNanos) {
                    worst = Math.max(worst, Math.min(lengths[i], ends[i] - sinceNanos));
                }
            }
            return worst;
        }
    }
}
