package io.healthmesh.status.board;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A target's latency history on the {@link StatusBoard}: the newest {@code capacity} points in time order, kept in
 * primitive arrays (17 bytes a point) rather than as {@link LatencyPoint} objects in a deque (about 36 bytes a point
 * and the deque's own array), because every instance serving the page keeps one for every target of the fleet.
 * The arrays start small and double up to the capacity, so a target with few results costs little whatever the
 * capacity. Not thread-safe: the board's lock guards it.
 */
final class LatencyRing {

    private static final int FIRST_LENGTH = 4;

    private final int capacity;
    private long[] atMs;
    private long[] micros;
    private boolean[] ok;
    private int first;
    private int size;

    /** @param capacity the most points kept (at least 1); the oldest goes when a point is added to a full ring */
    LatencyRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: at least 1)");
        }
        this.capacity = capacity;
        int length = Math.min(capacity, FIRST_LENGTH);
        atMs = new long[length];
        micros = new long[length];
        ok = new boolean[length];
    }

    /** The length of the arrays now (for tests). */
    int allocated() {
        return atMs.length;
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
        if (size == atMs.length && size < capacity) {
            grow();
        }
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
        LatencyPoint[] points = new LatencyPoint[size];
        for (int i = 0; i < size; i++) {
            int slot = index(i);
            points[i] = new LatencyPoint(atMs[slot], micros[slot], ok[slot]);
        }
        return Collections.unmodifiableList(Arrays.asList(points));
    }

    /** Doubles the arrays (up to the capacity), the points moved to the front in order. */
    private void grow() {
        int length = (int) Math.min(capacity, 2L * atMs.length);
        long[] newAtMs = new long[length];
        long[] newMicros = new long[length];
        boolean[] newOk = new boolean[length];
        for (int i = 0; i < size; i++) {
            int slot = index(i);
            newAtMs[i] = atMs[slot];
            newMicros[i] = micros[slot];
            newOk[i] = ok[slot];
        }
        atMs = newAtMs;
        micros = newMicros;
        ok = newOk;
        first = 0;
    }

    private int index(int i) {
        return (first + i) % atMs.length;
    }
}
