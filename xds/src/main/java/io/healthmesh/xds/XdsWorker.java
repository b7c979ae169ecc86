package io.healthmesh.xds;

import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.StateFollower;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.OpsServer;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import io.healthmesh.xds.snapshot.SnapshotAssembler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * An xds instance: a {@link StateFollower} of the state topics, the {@link SnapshotAssembler} it feeds on its own
 * thread, the {@link XdsServer} serving the result, and the operations endpoint. Nothing is served before the
 * follower has caught up ({@code /readyz} is 503 until then, and clients' requests wait); from then on each change
 * of the state is a new snapshot, and only the clients whose resources changed are answered.
 */
public final class XdsWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(XdsWorker.class);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SnapshotAssembler assembler;
    private final XdsMetrics metrics;
    private final XdsCallbacks callbacks;
    private final XdsServer server;
    private final OpsServer ops;
    private final StateFollower follower;
    private volatile boolean closed;
    private final String xdsHost;
    private final String opsHost;
    private final String topicPrefix;

    private XdsWorker(XdsConfig config) {
        assembler = new SnapshotAssembler(new EndpointMapping(config.zoneLabel()),
                new ProxyResources(config.connectTimeoutMs()), config.clusterNames());
        // the gauges read the assembler's counts, written by the follower's thread: a slightly old value is fine
        metrics = new XdsMetrics(registry, () -> callbacks().openStreams(), () -> assembler.groups(),
                () -> assembler.endpoints(), () -> assembler.skipped());
        callbacks = new XdsCallbacks(config.listener().maxStreams(), metrics);
        server = XdsServer.start(config.listener(), callbacks);
        xdsHost = config.listener().host();
        opsHost = config.http().separateOps() && config.http().opsHost() != null ? config.http().opsHost()
                : config.httpHost();
        topicPrefix = config.source().topics().prefix();
        try {
            HttpOptions http = config.http();
            InetSocketAddress bind = http.separateOps()
                    ? new InetSocketAddress(http.opsHost() != null ? http.opsHost() : config.httpHost(), http.opsPort())
                    : new InetSocketAddress(config.httpHost(), config.httpPort());
            ops = OpsServer.builder(bind).limits(http.limits()).ops(registry, this::ready)
                    .opsToken(http.opsToken()).name("xds-http").start();
        } catch (IOException e) {
            server.close();
            throw new UncheckedIOException("cannot bind " + config.httpHost() + ":" + config.httpPort(), e);
        }
        try {
            follower = StateFollower.start(config.source(), this::onState, registry, XdsMetrics.PREFIX);
        } catch (RuntimeException e) {
            ops.close();
            server.close();
            throw e;
        }
    }

    private XdsCallbacks callbacks() {
        return callbacks;
    }

    /** Starts an instance. */
    public static XdsWorker start(XdsConfig config) {
        XdsWorker worker = new XdsWorker(requireNonNull(config, "config"));
        LOG.info("xds started on port {}: {}", worker.xdsPort(), config);
        return worker;
    }

    /** Called on the follower's thread: first with every group once caught up, then with each change. */
    private void onState(FollowedState state, Set<String> changedGroups) {
        long start = System.nanoTime();
        SnapshotAssembler.Snapshots snapshots = assembler.apply(state, changedGroups);
        if (snapshots.changed() == 0 && server.serving()) {
            return;
        }
        server.publish(snapshots);
        metrics.updated((System.nanoTime() - start) / 1e9);
        if (LOG.isDebugEnabled()) {
            LOG.debug("serving {} groups ({} changed): {}", assembler.groups(), snapshots.changed(), snapshots.proxy());
        }
    }

    /** Ready once the state topics are read and the first snapshot is served. */
    public boolean ready() {
        return !closed && follower.caughtUp() && server.serving();
    }

    public int xdsPort() {
        return server.port();
    }

    public int httpPort() {
        return ops.port();
    }

    @Override
    public List<BoundListener> boundListeners() {
        return List.of(new BoundListener("xds", xdsHost, server.port()), new BoundListener("http", opsHost, ops.port()));
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(topicPrefix);
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        closed = true;
        follower.close();
        server.close();
        ops.close();
        LOG.info("xds stopped");
    }
}
