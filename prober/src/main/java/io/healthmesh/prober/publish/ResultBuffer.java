package io.healthmesh.prober.publish;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A bounded FIFO that never blocks its producers: when full, an old element is dropped to make room (a newer result
 * says more about a target than an older one). The oldest element that may not decide a state goes first
 * ({@code mayDecide}: {@code CompletedProbe.mayDecide}); only when every element held may decide does the oldest of
 * them go, so that during an outage, when the buffer fills, the results that change states are the last to be lost.
 * The two kinds wait in two queues, each element numbered in arrival order, and the consumer takes from whichever
 * head is older: dropping and taking stay O(1). One consumer takes elements, waiting with a timeout, and can put an
 * element back at the head when it could not hand it on.
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
    private final Predicate<? super T> mayDecide;
    /** Guarded by {@code lock}: the elements that may decide a state, oldest first. */
    private final ArrayDeque<Numbered<T>> deciding;
    /** Guarded by {@code lock}: every other element, oldest first. */
    private final ArrayDeque<Numbered<T>> others;
    /** Guarded by {@code lock}: the number of the next element offered (at the tail). */
    private long nextTail;
    /** Guarded by {@code lock}: one below the number of the last element put back (at the head). */
    private long nextHead = -1;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Guarded by {@code lock}: the consumer waits for a first element and must be woken by the next offer. */
    private boolean consumerWaitsForFirst;
    /** Guarded by {@code lock}: the consumer gathers a batch of this many; an offer reaching it wakes the consumer. */
    private int gatheringFor;
    /** Guarded by {@code lock}: an urgent element waits, so the consumer takes what is there without gathering. */
    private boolean urgentWaiting;

    /** A buffer in which no element may decide: the oldest is dropped first. */
    ResultBuffer(int capacity) {
        this(capacity, element -> false);
    }

    /** A buffer that keeps the elements {@code mayDecide} accepts longer than the others when full. */
    ResultBuffer(int capacity, Predicate<? super T> mayDecide) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
        this.mayDecide = mayDecide;
        this.deciding = new ArrayDeque<>(Math.min(capacity, 1024));
        this.others = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /** Adds at the tail; returns true when an older element was dropped to make room. */
    boolean offer(T element) {
        return offer(element, false);
    }

    /**
     * Adds at the tail; returns true when an older element was dropped to make room (the oldest that may not
     * decide, else the oldest). An {@code urgent} element ends the consumer's gathering: it is taken at once with
     * whatever waits before it.
     */
    boolean offer(T element, boolean urgent) {
        lock.lock();
        try {
            boolean dropped = false;
            if (sizeLocked() >= capacity) {
                (others.isEmpty() ? deciding : others).pollFirst();
                dropped = true;
            }
            queueOf(element).addLast(new Numbered<>(element, nextTail++));
            if (urgent) {
                urgentWaiting = true;
            }
            if (consumerWaitsForFirst || (gatheringFor > 0 && (urgent || sizeLocked() >= gatheringFor))) {
                notEmpty.signal();
            }
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts an element back at the head (it is the oldest). Returns true when the buffer was full and an element
     * was dropped: this one, when it may not decide or every element held may; else the oldest that may not.
     */
    boolean putBack(T element) {
        lock.lock();
        try {
            ArrayDeque<Numbered<T>> queue = queueOf(element);
            if (sizeLocked() >= capacity) {
                if (queue == others || others.isEmpty()) {
                    return true; // it would have been the next to go anyway
                }
                others.pollFirst();
                queue.addFirst(new Numbered<>(element, nextHead--));
                notEmpty.signal();
                return true;
            }
            queue.addFirst(new Numbered<>(element, nextHead--));
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
            return takeOldest();
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
                while (sizeLocked() < max && nanos > 0 && !urgentWaiting) {
                    nanos = notEmpty.awaitNanos(nanos);
                }
            } finally {
                gatheringFor = 0;
            }
            int moved = 0;
            while (moved < max && sizeLocked() > 0) {
                into.add(takeOldest());
                moved++;
            }
            if (sizeLocked() == 0) {
                urgentWaiting = false;   // else the urgent element may be among those left: the next take does not gather
            }
            return moved;
        } finally {
            lock.unlock();
        }
    }

    /** Waits, holding the lock, until the queue has an element; false when none came within {@code nanos}. */
    private boolean awaitFirst(long nanos) throws InterruptedException {
        if (sizeLocked() > 0) {
            return true;
        }
        consumerWaitsForFirst = true;
        try {
            while (sizeLocked() == 0) {
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
            return sizeLocked();
        } finally {
            lock.unlock();
        }
    }

    private int sizeLocked() {
        return deciding.size() + others.size();
    }

    private ArrayDeque<Numbered<T>> queueOf(T element) {
        return mayDecide.test(element) ? deciding : others;
    }

    /** The oldest element of either queue, removed; holding the lock, with at least one element. */
    private T takeOldest() {
        Numbered<T> first = deciding.peekFirst();
        Numbered<T> other = others.peekFirst();
        if (first == null || (other != null && other.number() < first.number())) {
            return others.pollFirst().element();
        }
        return deciding.pollFirst().element();
    }

    /** An element and its place in arrival order (put back at the head: below every number given so far). */
    private record Numbered<T>(T element, long number) {
    }
}
