package io.healthmesh.aggregator.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import static java.util.Objects.requireNonNull;

/**
 * When each target of one task next needs a staleness check, in memory, so that a punctuation reads only the targets
 * that fell due instead of every target in the store (with 100,000 targets, reading and decoding each of them every
 * second took a large share of the stream thread, and grew with the number of targets, not with the load).
 *
 * <p>A target has one due time ({@link #schedule}); a result moves it later on almost every record, so the queue
 * is not touched then: the entry queued for the earlier time is found out of date when it comes up and is queued
 * again for the current due time ({@link #takeDue}). Only a due time earlier than the queued one adds an entry; the
 * entry it replaces is dropped when it comes up. So each target has at most one live entry, and the dropped ones
 * are bounded by the moves to an earlier time. Not thread-safe: it belongs to one task's processor.
 */
final class StalenessSchedule {

    /** One target's due time and the time of its live queue entry ({@code Long.MIN_VALUE}: none queued). */
    private static final class Slot {
        long dueMs;
        long queuedMs = Long.MIN_VALUE;
    }

    private record Entry(long atMs, String targetId) {
    }

    private final Map<String, Slot> slots = new HashMap<>();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> Long.compare(a.atMs, b.atMs));

    /** Sets when {@code targetId} is next due; {@link Long#MAX_VALUE}: never (until scheduled again). */
    void schedule(String targetId, long dueMs) {
        requireNonNull(targetId, "targetId");
        if (dueMs == Long.MAX_VALUE) {
            Slot slot = slots.get(targetId);
            if (slot != null) {
                slot.dueMs = Long.MAX_VALUE;
            }
            return;
        }
        Slot slot = slots.computeIfAbsent(targetId, id -> new Slot());
        slot.dueMs = dueMs;
        if (slot.queuedMs == Long.MIN_VALUE || dueMs < slot.queuedMs) {
            slot.queuedMs = dueMs;
            queue.add(new Entry(dueMs, targetId));
        }
    }

    /** Forgets {@code targetId} (deleted). */
    void remove(String targetId) {
        slots.remove(targetId);
    }

    /**
     * Takes the targets due at {@code nowMs}, at most {@code max} of them (the others stay due: see
     * {@link #hasDue}): they are no longer scheduled until {@link #schedule} is called for them again (after their
     * check).
     */
    List<String> takeDue(long nowMs, int max) {
        List<String> due = new ArrayList<>();
        while (due.size() < max && !queue.isEmpty() && queue.peek().atMs <= nowMs) {
            Entry entry = queue.poll();
            Slot slot = slots.get(entry.targetId);
            if (slot == null || slot.queuedMs != entry.atMs) {
                continue; // deleted, or replaced by an earlier entry
            }
            slot.queuedMs = Long.MIN_VALUE;
            if (slot.dueMs == Long.MAX_VALUE) {
                continue;
            }
            if (slot.dueMs > nowMs) {
                slot.queuedMs = slot.dueMs; // moved later since it was queued
                queue.add(new Entry(slot.dueMs, entry.targetId));
                continue;
            }
            slot.dueMs = Long.MAX_VALUE;
            due.add(entry.targetId);
        }
        return due;
    }

    /** True when a target may be due at {@code nowMs} (an out-of-date entry may answer true once). */
    boolean hasDue(long nowMs) {
        return !queue.isEmpty() && queue.peek().atMs <= nowMs;
    }

    /** Targets known to the schedule. */
    int size() {
        return slots.size();
    }

    /** Entries in the queue, live and out of date (for tests: stays bounded). */
    int queued() {
        return queue.size();
    }
}
