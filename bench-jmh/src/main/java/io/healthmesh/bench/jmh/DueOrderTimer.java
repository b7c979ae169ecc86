package io.healthmesh.bench.jmh;

import io.healthmesh.prober.schedule.Ticker;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A timer for benchmarks whose time moves only when a task is fired: {@link #fireNext()} moves the clock to the
 * earliest deadline and runs that task. Tasks are kept in a FIFO, which is in deadline order as long as every task
 * re-arms itself one fixed interval after it fired (fixed-rate targets that share an interval); {@link #sort()}
 * orders the first, jittered starts once. So the benchmark measures the scheduler, not a priority queue.
 */
final class DueOrderTimer implements Timer, Ticker {

    private final ArrayDeque<Entry> due = new ArrayDeque<>();
    private long now;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Entry entry = new Entry(this, task, now + unit.toNanos(delay));
        due.addLast(entry);
        return entry;
    }

    void sort() {
        List<Entry> all = new ArrayList<>(due);
        all.sort(Comparator.comparingLong(e -> e.deadline));
        due.clear();
        due.addAll(all);
    }

    /** Fires the earliest live task; false when none is left. */
    boolean fireNext() throws Exception {
        for (Entry next = due.pollFirst(); next != null; next = due.pollFirst()) {
            if (next.cancelled) {
                continue;
            }
            now = Math.max(now, next.deadline);
            next.task.run(next);
            return true;
        }
        return false;
    }

    int pending() {
        return due.size();
    }

    @Override
    public Set<Timeout> stop() {
        due.clear();
        return Set.of();
    }

    private static final class Entry implements Timeout {
        private final Timer timer;
        private final TimerTask task;
        private final long deadline;
        private boolean cancelled;

        Entry(Timer timer, TimerTask task, long deadline) {
            this.timer = timer;
            this.task = task;
            this.deadline = deadline;
        }

        @Override
        public Timer timer() {
            return timer;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean cancel() {
            cancelled = true;
            return true;
        }
    }
}
