package io.healthmesh.notifier.deliver;

import io.healthmesh.core.retry.Backoff;

import io.healthmesh.notifier.NotifierMetrics;
import io.healthmesh.notifier.domain.Notification;
import io.healthmesh.notifier.route.RouteConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Delivers one route's notifications in order, on a thread of its own: the head of the queue is sent until the
 * receiver accepts it (or refuses it for good), waiting {@link Backoff} between attempts, and only then the next, so
 * a resolved message never overtakes its firing. Nothing is dropped while the receiver is down; a notification
 * leaves the queue only delivered, rejected (counted, logged) or {@linkplain #drop dropped} because its partition
 * moved to another instance. {@code done} is told of each delivered or rejected notification.
 */
public final class RouteDelivery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RouteDelivery.class);

    private final RouteConfig route;
    private final Transport transport;
    private final Backoff backoff;
    private final Clock clock;
    private final NotifierMetrics metrics;
    private final Consumer<Notification> done;
    private final Deque<Notification> queue = new ArrayDeque<>();
    private final Thread thread;
    private Notification current;
    private boolean currentDropped;
    private boolean retrying;
    private boolean closed;

    public RouteDelivery(RouteConfig route, Transport transport, Backoff backoff, Clock clock, NotifierMetrics metrics,
                         Consumer<Notification> done) {
        this.route = requireNonNull(route, "route");
        this.transport = requireNonNull(transport, "transport");
        this.backoff = requireNonNull(backoff, "backoff");
        this.clock = requireNonNull(clock, "clock");
        this.metrics = requireNonNull(metrics, "metrics");
        this.done = requireNonNull(done, "done");
        this.thread = new Thread(this::run, "healthmesh-notifier-" + route.name());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues a notification behind the others. */
    public synchronized void offer(Notification n) {
        queue.addLast(requireNonNull(n, "n"));
        notifyAll();
    }

    /**
     * Removes queued notifications that match; one being sent is not retried after its current attempt (which may
     * still reach the receiver: its copy would carry the same idempotency key).
     */
    public synchronized void drop(Predicate<Notification> which) {
        queue.removeIf(which);
        if (current != null && which.test(current)) {
            currentDropped = true;
            notifyAll();
        }
    }

    /** Notifications waiting, including the one being sent. */
    public synchronized int pending() {
        return queue.size() + (current == null ? 0 : 1);
    }

    public synchronized boolean retrying() {
        return retrying;
    }

    /** Seconds since the oldest waiting notification became due. */
    public synchronized double lagSeconds() {
        Notification oldest = current != null ? current : queue.peekFirst();
        return oldest == null ? 0 : Math.max(0, clock.millis() - oldest.dueMs()) / 1000.0;
    }

    private void run() {
        while (true) {
            Notification n;
            synchronized (this) {
                while (queue.isEmpty() && !closed) {
                    waitQuietly(0);
                }
                if (closed) {
                    return;
                }
                n = queue.pollFirst();
                current = n;
                currentDropped = false;
            }
            deliver(n);
            synchronized (this) {
                current = null;
                retrying = false;
            }
        }
    }

    private void deliver(Notification n) {
        byte[] body = null;
        for (int failures = 0; ; ) {
            synchronized (this) {
                if (closed || currentDropped) {
                    return;
                }
            }
            if (body == null) {
                body = Payloads.body(route.type(), route.alertLabels(), n, clock.instant());
            }
            Attempt attempt;
            String failure;
            try {
                int status = transport.post(route.endpoint(), headers(n), body, route.timeout());
                attempt = Attempt.ofStatus(status);
                failure = "HTTP " + status;
            } catch (IOException e) {
                attempt = Attempt.RETRY;
                failure = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            switch (attempt) {
                case DELIVERED -> {
                    metrics.sent(n);
                    done.accept(n);
                    return;
                }
                case REJECTED -> {
                    metrics.failed(route.name(), "rejected");
                    LOG.warn("route {}: {} {} of {} refused ({}); not retried", route.name(), n.type(),
                            n.idempotencyKey(), n.key(), failure);
                    done.accept(n);
                    return;
                }
                default -> {
                    failures++;
                    metrics.failed(route.name(), failure.startsWith("HTTP") ? "status" : "error");
                    Duration wait = backoff.after(failures);
                    if (failures == 1 || failures % 10 == 0) {
                        LOG.warn("route {}: delivery failed ({}), attempt {}; retrying in {} ms", route.name(),
                                failure, failures, wait.toMillis());
                    }
                    synchronized (this) {
                        retrying = true;
                        long until = System.nanoTime() + wait.toNanos();
                        while (!closed && !currentDropped) {
                            long left = until - System.nanoTime();
                            if (left <= 0) {
                                break;
                            }
                            waitQuietly(Math.max(1, left / 1_000_000));
                        }
                    }
                }
            }
        }
    }

    private Map<String, String> headers(Notification n) {
        Map<String, String> headers = new java.util.LinkedHashMap<>(route.headers());
        headers.put("Idempotency-Key", n.idempotencyKey());
        return headers;
    }

    private void waitQuietly(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            closed = true;
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the thread; what is still queued stays undelivered (its records stay uncommitted). */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
