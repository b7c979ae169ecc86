package io.healthmesh.aggregator.status;

import java.util.ArrayList;
import java.util.List;

/**
 * A target's latency history on the {@link StatusBoard}: the newest {@code capacity} points in time order, kept in
 * primitive arrays (17 bytes a point) rather than as {@link LatencyPoint} objects in a deque (about 36 bytes a point
 * and the deque's own array), because every aggregator instance keeps one for every target of the fleet.
 * Not thread-safe: the board's lock guards it.
 */
final class LatencyRing {

    private final long[] atMs;
    private final long[] micros;
    private final boolean[] ok;
    private int first;
    private int size;

    /** @param capacity the most points kept (at least 1); the oldest goes when a point is added to a full ring */
    LatencyRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: at least 1)");
        }
        atMs = new long[capacity];
        micros = new long[capacity];
        ok = new boolean[capacity];
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Start of the newest point's probe; only when not empty. */
    long lastAtMs() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        return atMs[index(size - 1)];
    }

    /** Appends {@code point} as the newest, dropping the oldest when the ring is full. */
    void add(LatencyPoint point) {
        int slot;
        if (size == atMs.length) {
            slot = first;
            first = (first + 1) % atMs.length;
        } else {
            slot = index(size);
            size++;
        }
        atMs[slot] = point.atMs();
        micros[slot] = point.micros();
        ok[slot] = point.ok();
    }

    /** The points, oldest first, as a new list. */
    List<LatencyPoint> toList() {
        List<LatencyPoint> points = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int slot = index(i);
            points.add(new LatencyPoint(atMs[slot], micros[slot], ok[slot]));
        }
        return List.copyOf(points);
    }

    private int index(int i) {
        return (first + i) % atMs.length;
    }
}
