package io.healthmesh.probe;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deadlines of one event loop's probes, one lane per timeout: within a lane the deadlines come in the order the
 * probes started (one loop, one clock, one timeout), so a lane is a queue, and arming or dropping a deadline costs
 * a constant, where one scheduled task per probe cost a priority-queue insertion and removal (the second item of
 * the probe loops' own code in the prober's profile, after the epoll registrations). Each lane has at most one task
 * scheduled on the loop, for its oldest deadline; when it runs it expires what is due and schedules itself for the
 * next one. A probe that ends drops its entry's reference to itself at once; the entry, a few bytes, leaves its
 * lane when it reaches the head, at once when it already is (probes mostly end in the order they started).
 *
 * <p>Confined to its loop: {@link #arm} and {@link Entry#cancel} are called there, as every {@link ProbeContext}
 * method is.
 */
final class DeadlineLanes {

    private static final Logger LOG = LoggerFactory.getLogger(DeadlineLanes.class);

    private final EventExecutor loop;
    private final Map<Integer, Lane> lanes = new HashMap<>();
    private int lastTimeoutMs = -1;
    private Lane lastLane;

    DeadlineLanes(EventExecutor loop) {
        this.loop = loop;
    }

    /** One {@code DeadlineLanes} per loop of {@code group}, read-only afterwards (safe to read from any thread). */
    static Map<EventExecutor, DeadlineLanes> forEach(EventExecutorGroup group) {
        Map<EventExecutor, DeadlineLanes> byLoop = new IdentityHashMap<>();
        for (EventExecutor loop : group) {
            byLoop.put(loop, new DeadlineLanes(loop));
        }
        return byLoop;
    }

    /**
     * Arms {@code probe}'s deadline at {@code deadlineTick} (the loop's ticker), {@code timeoutMs} after now;
     * the probe's {@link ProbeContext#expire()} runs then unless the entry is cancelled first.
     */
    Entry arm(ProbeContext probe, int timeoutMs, long deadlineTick) {
        Lane lane = timeoutMs == lastTimeoutMs ? lastLane : null;   // most targets share a timeout: no lookup
        if (lane == null) {
            lane = lanes.computeIfAbsent(timeoutMs, ms -> new Lane());
            lastTimeoutMs = timeoutMs;
            lastLane = lane;
        }
        Entry entry = new Entry(lane, probe, deadlineTick);
        lane.entries.addLast(entry);
        if (!lane.scheduled) {
            lane.scheduleFor(deadlineTick);
        }
        return entry;
    }

    /** Entries still queued in every lane, finished or not (tests). */
    int queued() {
        int queued = 0;
        for (Lane lane : lanes.values()) {
            queued += lane.entries.size();
        }
        return queued;
    }

    /** One probe's deadline. */
    static final class Entry {
        private final Lane lane;
        private final long deadlineTick;
        private ProbeContext probe;

        private Entry(Lane lane, ProbeContext probe, long deadlineTick) {
            this.lane = lane;
            this.probe = probe;
            this.deadlineTick = deadlineTick;
        }

        /** The probe ended: its deadline will not fire. */
        void cancel() {
            if (probe != null) {
                probe = null;
                lane.dropEnded();
            }
        }
    }

    private final class Lane implements Runnable {
        private final ArrayDeque<Entry> entries = new ArrayDeque<>();
        private boolean scheduled;

        private void scheduleFor(long deadlineTick) {
            long delay = Math.max(0, deadlineTick - loop.ticker().nanoTime());
            try {
                loop.schedule(this, delay, TimeUnit.NANOSECONDS);
                scheduled = true;
            } catch (RejectedExecutionException stopping) {
                // the loop is shutting down: the engine ends every probe in flight itself (ProbeRunner.abortAll)
                scheduled = false;
            }
        }

        /** Drops ended probes' entries from the head. */
        private void dropEnded() {
            for (Entry head; (head = entries.peekFirst()) != null && head.probe == null; ) {
                entries.pollFirst();
            }
        }

        @Override
        public void run() {
            scheduled = false;
            long now = loop.ticker().nanoTime();
            for (Entry head; (head = entries.peekFirst()) != null; ) {
                if (head.probe == null) {
                    entries.pollFirst();
                } else if (head.deadlineTick - now <= 0) {
                    entries.pollFirst();
                    ProbeContext probe = head.probe;
                    head.probe = null;
                    try {
                        probe.expire();
                    } catch (RuntimeException e) {
                        // one probe's failure must not keep the lane's other deadlines from firing
                        LOG.warn("probe deadline failed: {}", e.toString());
                    }
                } else {
                    scheduleFor(head.deadlineTick);
                    return;
                }
            }
        }
    }
}
