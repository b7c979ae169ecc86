package io.healthmesh.prober.publish;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded FIFO that never blocks its producers: when full, the oldest element is dropped to make room
 * (a newer result says more about a target than an older one). One consumer takes elements, waiting
 * with a timeout, and can put an element back at the head when it could not hand it on.
 *
 * <p>The consumer can take elements in batches ({@link #takeBatch}): woken by the first element, it then gathers
 * for a short time without being woken again, unless a whole batch is waiting. Producers (the event loops) then
 * wake the consumer once per batch rather than once per element: each wake-up is a system call on the producer's
 * side and a context switch on the consumer's.
 *
 * @param <T> element type
 */
final class ResultBuffer<T> {

    private final int capacity;
    private final ArrayDeque<T> queue;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Guarded by {@code lock}: the consumer waits for a first element and must be woken by the next offer. */
    private boolean consumerWaitsForFirst;
    /** Guarded by {@code lock}: the consumer gathers a batch of this many; an offer reaching it wakes the consumer. */
    private int gatheringFor;
    /** Guarded by {@code lock}: an urgent element waits, so the consumer takes what is there without gathering. */
    private boolean urgentWaiting;

    ResultBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
        this.queue = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /** Adds at the tail; returns true when the oldest element was dropped to make room. */
    boolean offer(T element) {
        return offer(element, false);
    }

    /**
     * Adds at the tail; returns true when the oldest element was dropped to make room. An {@code urgent} element
     * ends the consumer's gathering: it is taken at once with whatever waits before it.
     */
    boolean offer(T element, boolean urgent) {
        lock.lock();
        try {
            boolean dropped = false;
            if (queue.size() >= capacity) {
                queue.pollFirst();
                dropped = true;
            }
            queue.addLast(element);
            if (urgent) {
                urgentWaiting = true;
            }
            if (consumerWaitsForFirst || (gatheringFor > 0 && (urgent || queue.size() >= gatheringFor))) {
                notEmpty.signal();
            }
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
        lock.lock();
        try {
            if (!awaitFirst(unit.toNanos(timeout))) {
                return null;
            }
            return queue.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves up to {@code max} of the oldest elements into {@code into}, in order. Waits at most {@code timeoutNanos}
     * for a first element; once there is one and fewer than {@code max} are waiting, waits up to {@code gatherNanos}
     * more for others (an offer wakes it early only when {@code max} are waiting or the offer is urgent; no gathering
     * at all while an urgent element waits).
     *
     * @return the number moved, 0 when none came within the timeout
     */
    int takeBatch(Collection<? super T> into, int max, long timeoutNanos, long gatherNanos)
            throws InterruptedException {
        if (max < 1) {
            throw new IllegalArgumentException("max: " + max + " (expected: >= 1)");
        }
        lock.lock();
        try {
            if (!awaitFirst(timeoutNanos)) {
                return 0;
            }
            long nanos = gatherNanos;
            gatheringFor = max;
            try {
                while (queue.size() < max && nanos > 0 && !urgentWaiting) {
                    nanos = notEmpty.awaitNanos(nanos);
                }
            } finally {
                gatheringFor = 0;
            }
            int moved = 0;
            while (moved < max && !queue.isEmpty()) {
                into.add(queue.pollFirst());
                moved++;
            }
            if (queue.isEmpty()) {
                urgentWaiting = false;   // else the urgent element may be among those left: the next take does not gather
            }
            return moved;
        } finally {
            lock.unlock();
        }
    }

    /** Waits, holding the lock, until the queue has an element; false when none came within {@code nanos}. */
    private boolean awaitFirst(long nanos) throws InterruptedException {
        if (!queue.isEmpty()) {
            return true;
        }
        consumerWaitsForFirst = true;
        try {
            while (queue.isEmpty()) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return true;
        } finally {
            consumerWaitsForFirst = false;
        }
    }

    /** True while a consumer, woken by a first element, gathers more (for tests of the gathering). */
    boolean gathering() {
        lock.lock();
        try {
            return gatheringFor > 0;
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
