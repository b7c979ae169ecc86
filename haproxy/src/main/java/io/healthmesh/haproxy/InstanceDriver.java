package io.healthmesh.haproxy;

import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.haproxy.plan.DesiredBackend;
import io.healthmesh.haproxy.runtime.RuntimeAddress;
import io.healthmesh.haproxy.runtime.RuntimeSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Keeps one HAProxy instance equal to the desired servers, on a thread of its own. A pass runs when the state
 * changed ({@link #wake()}), every {@code interval} (a HAProxy reload or restart forgets runtime changes: the next
 * pass puts them back, and a pass after a failed one always reads everything again), and as soon as the change
 * budget allows more of what it held back. Events arriving while a pass runs are folded into the next one, so a
 * burst becomes one session. A failed pass is retried after a backoff of 200 ms doubling to {@code interval}.
 */
final class InstanceDriver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceDriver.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    /** A server waiting for its connections to end before deletion is looked at again this soon. */
    private static final Duration WAITING_RECHECK = Duration.ofSeconds(1);

    private final RuntimeAddress address;
    private final List<String> mapped;
    private final String instance;
    private final Supplier<Map<String, DesiredBackend>> desired;
    private final ChangeBudget budget;
    private final Duration socketTimeout;
    private final Duration interval;
    private final HaproxyMetrics metrics;
    private final Clock clock;
    private final ReconcilePass pass;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private final Thread thread;
    private boolean pending;
    private volatile boolean closed;
    private volatile boolean reconciledOnce;
    private Set<String> unknownReported = Set.of();
    private boolean failing;

    /**
     * @param mapped every backend of the mapping
     * @param desired the desired servers per backend, or {@code null} while the follower has not caught up
     */
    InstanceDriver(RuntimeAddress address, List<String> mapped, Supplier<Map<String, DesiredBackend>> desired,
                   ChangeBudget budget, Duration socketTimeout, Duration interval, HaproxyMetrics metrics,
                   Clock clock) {
        this.address = address;
        this.mapped = List.copyOf(mapped);
        this.instance = address.toString();
        this.desired = desired;
        this.budget = budget;
        this.socketTimeout = socketTimeout;
        this.interval = interval;
        this.metrics = metrics;
        this.clock = clock;
        this.pass = new ReconcilePass(instance, metrics);
        this.thread = new Thread(this::run, "healthmesh-haproxy-" + instance);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks for a pass as soon as the current one (if any) ends. */
    void wake() {
        lock.lock();
        try {
            pending = true;
            woken.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Whether a pass over this instance has succeeded since the driver started. */
    boolean reconciledOnce() {
        return reconciledOnce;
    }

    String instance() {
        return instance;
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (!closed) {
            Duration next = interval;
            Map<String, DesiredBackend> wanted = desired.get();
            if (wanted != null) {
                try {
                    next = passOnce(wanted);
                    backoff = FIRST_BACKOFF;
                } catch (IOException | RuntimeException e) {
                    metrics.failed(instance);
                    if (!failing) {
                        LOG.warn("{}: Runtime API pass failed ({}); retrying, and reading everything again once it"
                                + " answers", instance, e.toString());
                        failing = true;
                    }
                    next = backoff;
                    backoff = backoff.multipliedBy(2).compareTo(interval) > 0 ? interval : backoff.multipliedBy(2);
                }
            }
            awaitWake(next);
        }
    }

    private Duration passOnce(Map<String, DesiredBackend> wanted) throws IOException {
        ReconcilePass.Outcome outcome;
        try (RuntimeSession session = RuntimeSession.open(address, socketTimeout)) {
            outcome = pass.run(session, mapped, wanted, budget);
        }
        if (failing) {
            LOG.info("{}: Runtime API answers again; reconciled", instance);
            failing = false;
        }
        if (!outcome.unknownBackends().equals(unknownReported) && !outcome.unknownBackends().isEmpty()) {
            LOG.error("{}: mapped backends {} do not exist in this HAProxy (add them to haproxy.cfg); the other"
                    + " backends are kept", instance, outcome.unknownBackends());
        }
        unknownReported = outcome.unknownBackends();
        metrics.succeeded(instance, clock.millis(), outcome.queued(), outcome.unknownBackends().size());
        if (outcome.applied() > 0 || outcome.queued() > 0) {
            LOG.info("{}: applied {} commands, {} refused, {} changes wait for the change budget", instance,
                    outcome.applied(), outcome.failed(), outcome.queued());
        }
        reconciledOnce = true;
        Duration next = interval;
        if (outcome.queued() > 0) {
            next = min(next, Duration.ofNanos(Math.max(budget.nanosUntilNext(), 1_000_000)));
        }
        if (outcome.waiting() > 0) {
            next = min(next, WAITING_RECHECK);
        }
        return next;
    }

    private void awaitWake(Duration timeout) {
        lock.lock();
        try {
            long nanos = timeout.toNanos();
            while (!pending && !closed && nanos > 0) {
                nanos = woken.awaitNanos(nanos);
            }
            pending = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public void close() {
        closed = true;
        wake();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
