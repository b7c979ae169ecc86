package io.healthmesh.prober.publish;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded FIFO that never blocks its producers: when full, the oldest element is dropped to make room
 * (a newer result says more about a target than an older one). One consumer takes elements, waiting
 * with a timeout, and can put an element back at the head when it could not hand it on.
 *
 * @param <T> element type
 */
final class ResultBuffer<T> {

    private final int capacity;
    private final ArrayDeque<T> queue;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();

    ResultBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
        this.queue = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /** Adds at the tail; returns true when the oldest element was dropped to make room. */
    boolean offer(T element) {
        lock.lock();
        try {
            boolean dropped = false;
            if (queue.size() >= capacity) {
                queue.pollFirst();
                dropped = true;
            }
            queue.addLast(element);
            notEmpty.signal();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts an element back at the head (it is the oldest). Returns true when the buffer was full and the
     * element was dropped instead: it would have been the next to go anyway.
     */
    boolean putBack(T element) {
        lock.lock();
        try {
            if (queue.size() >= capacity) {
                return true;
            }
            queue.addFirst(element);
            notEmpty.signal();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** The oldest element, waiting at most {@code timeout} for one; {@code null} when none came. */
    T poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (queue.isEmpty()) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return queue.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }
}
