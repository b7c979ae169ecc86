package io.healthmesh.haproxy;

import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.StateFollower;
import io.healthmesh.haproxy.mapping.BackendMapping;
import io.healthmesh.haproxy.plan.DesiredBackend;
import io.healthmesh.haproxy.plan.DesiredServers;
import io.healthmesh.haproxy.runtime.RuntimeAddress;
import io.healthmesh.ops.OpsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A haproxy driver: the state follower, one {@link InstanceDriver} per HAProxy instance of the mapping (each with
 * its own change budget, so one slow or absent instance holds back no other), and the ops endpoint. Nothing is
 * sent to HAProxy before the follower has caught up: a partial read would look like servers gone.
 * {@code /readyz} is 200 once the follower has caught up and every instance has had one successful pass.
 */
public final class HaproxyWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(HaproxyWorker.class);

    private final HaproxyConfig config;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<InstanceDriver> drivers = new ArrayList<>();
    private final OpsServer ops;
    private final StateFollower follower;
    /** The desired servers of the latest state; null until the follower has caught up. */
    private volatile Map<String, DesiredBackend> desired;
    private Set<String> problemsReported = Set.of();

    private HaproxyWorker(HaproxyConfig config, Clock clock) {
        this.config = config;
        List<String> instances = config.mapping().instances().stream().map(RuntimeAddress::toString).toList();
        HaproxyMetrics metrics = new HaproxyMetrics(registry, instances);
        List<String> mapped = config.mapping().backends().stream().map(BackendMapping::backend).toList();
        for (RuntimeAddress address : config.mapping().instances()) {
            ChangeBudget budget = new ChangeBudget(config.changesPerSecond(), config.changesBurst(), System::nanoTime);
            drivers.add(new InstanceDriver(address, mapped, () -> desired, budget, config.socketTimeout(),
                    config.interval(), metrics, clock));
        }
        try {
            this.ops = OpsServer.start(new InetSocketAddress(config.httpHost(), config.httpPort()), registry,
                    this::ready);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind " + config.httpHost() + ":" + config.httpPort(), e);
        }
        drivers.forEach(InstanceDriver::start);
        try {
            this.follower = StateFollower.start(config.source(), this::onState, registry, HaproxyMetrics.PREFIX);
        } catch (RuntimeException e) {
            drivers.forEach(InstanceDriver::close);
            ops.close();
            throw e;
        }
    }

    /** Starts a driver with the system clock. */
    public static HaproxyWorker start(HaproxyConfig config) {
        return start(config, Clock.systemUTC());
    }

    /** Starts a driver with the given clock (the time written to the last-success metric). */
    public static HaproxyWorker start(HaproxyConfig config, Clock clock) {
        HaproxyWorker worker = new HaproxyWorker(requireNonNull(config, "config"), requireNonNull(clock, "clock"));
        LOG.info("haproxy driver started: {}", config);
        return worker;
    }

    /** Called on the follower's thread: computes what the backends should hold and wakes every instance. */
    private void onState(FollowedState state, Set<String> changedGroups) {
        Map<String, DesiredBackend> next = DesiredServers.of(state, config.mapping());
        reportProblems(next);
        desired = next;
        drivers.forEach(InstanceDriver::wake);
    }

    /** Logs each member that cannot be a server once, when it first appears. */
    private void reportProblems(Map<String, DesiredBackend> next) {
        Set<String> problems = new HashSet<>();
        next.values().forEach(b -> b.problems().forEach(p -> problems.add(b.backend() + ": " + p)));
        for (String p : problems) {
            if (!problemsReported.contains(p)) {
                LOG.warn("{}", p);
            }
        }
        problemsReported = problems;
    }

    /** Caught up, and every instance reconciled at least once. */
    public boolean ready() {
        return follower != null && follower.caughtUp() && drivers.stream().allMatch(InstanceDriver::reconciledOnce);
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

    @Override
    public void close() {
        follower.close();
        drivers.forEach(InstanceDriver::close);
        ops.close();
        LOG.info("haproxy driver stopped");
    }
}
