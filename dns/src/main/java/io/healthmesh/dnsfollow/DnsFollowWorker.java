package io.healthmesh.dnsfollow;

import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.update.Rfc2136Server;
import io.healthmesh.dnsfollow.update.ZoneServer;
import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.follow.StateFollower;
import io.healthmesh.ops.OpsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * A dns role instance: a {@link StateFollower} of the state topics, a reconcile thread that keeps every mapped name
 * equal to its group's served members through a {@link ZoneReconciler}, and the operations endpoint.
 * <p>
 * The reconcile thread runs a pass over every name once the follower has caught up, then every
 * {@code reconcile.interval.ms}; between those, over the names whose group changed (the events that arrived during
 * a pass make one batch for the next), over failed names after a backoff (1 s doubling to 30 s, at most the
 * interval), and over names whose changes wait for the change budget once it allows more. Ready ({@code /readyz})
 * once the follower has caught up and every name has been in sync at least once.
 */
public final class DnsFollowWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(DnsFollowWorker.class);
    private static final long IDLE_WAIT_NANOS = Duration.ofMillis(200).toNanos();

    private final DnsFollowConfig config;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<NameMapping> names;
    private final ZoneReconciler reconciler;
    private final Set<String> changedGroups = ConcurrentHashMap.newKeySet();
    private final Semaphore wakeup = new Semaphore(0);
    private final Set<String> everInSync = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private final StateFollower follower;
    private final OpsServer ops;
    private volatile boolean closed;

    private DnsFollowWorker(DnsFollowConfig config, ZoneServer server) {
        this.config = config;
        this.names = config.mapping().names();
        DnsFollowMetrics metrics = new DnsFollowMetrics(registry);
        ChangeBudget budget = new ChangeBudget(config.changesPerSecond(), config.changesBurst(), System::nanoTime);
        this.reconciler = new ZoneReconciler(server, budget, metrics, System::currentTimeMillis);
        this.thread = new Thread(this::run, "healthmesh-dns-reconcile");
        this.follower = StateFollower.start(config.source(),
                (state, changed) -> {
                    changedGroups.addAll(changed);
                    wakeup.release();
                }, registry, "healthmesh_dns");
        try {
            this.ops = OpsServer.start(new InetSocketAddress(config.httpHost(), config.httpPort()), registry,
                    this::ready);
        } catch (IOException e) {
            follower.close();
            throw new UncheckedIOException("cannot bind " + config.httpHost() + ":" + config.httpPort(), e);
        }
    }

    /** Starts a dns role instance that talks RFC 2136 to the mapping's servers. */
    public static DnsFollowWorker start(DnsFollowConfig config) {
        requireNonNull(config, "config");
        return start(config, new Rfc2136Server(config.updateTimeout()));
    }

    /** Starts a dns role instance with the given zone access (tests). */
    static DnsFollowWorker start(DnsFollowConfig config, ZoneServer server) {
        DnsFollowWorker worker = new DnsFollowWorker(config, requireNonNull(server, "server"));
        worker.thread.start();
        LOG.info("dns role started: {}", config);
        return worker;
    }

    /** Caught up with the state topics, and every mapped name has been in sync at least once. */
    public boolean ready() {
        return !closed && follower.caughtUp() && everInSync.size() == names.size();
    }

    public int httpPort() {
        return ops.port();
    }

    @Override
    public List<BoundListener> boundListeners() {
        return List.of(new BoundListener("http", config.httpHost(), ops.port()));
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(config.source().topics().prefix());
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    private void run() {
        ReconcileSchedule schedule = new ReconcileSchedule(config.reconcileInterval(), System.nanoTime());
        try {
            while (!closed) {
                long wait = follower.caughtUp() ? schedule.wakeAt() - System.nanoTime() : IDLE_WAIT_NANOS;
                if (wait > 0 && wakeup.tryAcquire(wait, TimeUnit.NANOSECONDS)) {
                    wakeup.drainPermits();
                }
                if (closed || !follower.caughtUp()) {
                    continue;
                }
                long now = System.nanoTime();
                List<NameMapping> due = schedule.due(names, drainChangedGroups(), now);
                if (due.isEmpty()) {
                    continue;
                }
                ZoneReconciler.Outcome outcome;
                try {
                    outcome = reconciler.pass(follower.state(), due);
                } catch (RuntimeException e) {
                    LOG.error("reconcile pass over {} names failed; retried", due.size(), e);
                    outcome = ZoneReconciler.Outcome.failed(due);
                }
                everInSync.addAll(outcome.inSync());
                schedule.done(outcome, System.nanoTime(), reconciler.nanosUntilBudget());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("dns reconcile thread stopped; not ready from now on", e);
            everInSync.clear();
            closed = true;
        }
    }

    private Set<String> drainChangedGroups() {
        Set<String> groups = new HashSet<>();
        for (String g : changedGroups) {
            changedGroups.remove(g);
            groups.add(g);
        }
        return groups;
    }

    /** Stops reconciling (a pass under way finishes), the follower and the endpoint. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        wakeup.release();
        try {
            thread.join(config.updateTimeout().multipliedBy(4).toMillis() + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        follower.close();
        ops.close();
    }
}
