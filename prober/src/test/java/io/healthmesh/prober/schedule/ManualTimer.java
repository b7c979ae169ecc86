package io.healthmesh.prober.schedule;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.time.Duration;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A timer whose time moves only when the test says so; it is also the scheduler's {@link Ticker}.
 * {@link #advance} fires every due task in deadline order, moving the clock to each deadline first,
 * so tasks scheduled by fired tasks fire in the same advance when they fall due.
 */
final class ManualTimer implements Timer, Ticker {

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long now;
    private long sequence;
    private boolean stopped;

    @Override
    public long nanoTime() {
        return now;
    }

    long nowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(now);
    }

    int pending() {
        return (int) queue.stream().filter(e -> !e.cancelled).count();
    }

    /** Moves time on without firing anything, as if the process were frozen; the next advance fires the overdue. */
    void stall(Duration by) {
        now += by.toNanos();
    }

    void advance(Duration by) {
        long until = now + by.toNanos();
        int fired = 0;
        while (!queue.isEmpty() && queue.peek().deadline <= until) {
            Entry next = queue.poll();
            if (next.cancelled) {
                continue;
            }
            now = Math.max(now, next.deadline);
            next.expired = true;
            try {
                next.task.run(next);
            } catch (Exception e) {
                throw new AssertionError("timer task failed", e);
            }
            if (++fired > 10_000_000) {
                throw new AssertionError("runaway timer");
            }
        }
        now = until;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        if (stopped) {
            throw new IllegalStateException("stopped");
        }
        Entry e = new Entry(task, now + Math.max(0, unit.toNanos(delay)), sequence++);
        queue.add(e);
        return e;
    }

    @Override
    public Set<Timeout> stop() {
        stopped = true;
        Set<Timeout> left = new HashSet<>(queue);
        queue.clear();
        return left;
    }

    private final class Entry implements Timeout, Comparable<Entry> {
        final TimerTask task;
        final long deadline;
        final long seq;
        boolean cancelled;
        boolean expired;

        Entry(TimerTask task, long deadline, long seq) {
            this.task = task;
            this.deadline = deadline;
            this.seq = seq;
        }

        @Override
        public Timer timer() {
            return ManualTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return expired;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean cancel() {
            if (cancelled || expired) {
                return false;
            }
            cancelled = true;
            return true;
        }

        @Override
        public int compareTo(Entry o) {
            int byDeadline = Long.compare(deadline, o.deadline);
            return byDeadline != 0 ? byDeadline : Long.compare(seq, o.seq);
        }
    }
}
