package io.healthmesh.prober;

import io.healthmesh.probe.egress.DiscoveredEndpoints;
import io.healthmesh.probe.egress.EgressPolicy.HostPort;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.RaftVoterEndpoint;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps the engine's {@link DiscoveredEndpoints} current, every {@value #EVERY_SECONDS} seconds from start: every
 * broker the cluster's metadata names and every controller the metadata quorum names (its listeners, where the
 * cluster reports them), with every port of their hosts unless {@code deny.broker.hosts} is off, the named endpoints
 * (bootstrap servers, registry) resolved again, this host's own non-loopback addresses, and what the workers
 * announce ({@link AnnouncedEndpoints}, published again at once when the announcements change). A lookup that fails
 * keeps what the last one found, so a metadata outage never opens a broker; each pass replaces the denied set
 * whole. Runs on its own daemon thread, off the probe path.
 */
final class ClusterEndpointsRefresher implements AutoCloseable {

    static final int EVERY_SECONDS = 30;
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEndpointsRefresher.class);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;
    private final List<String> named;
    private final DiscoveredEndpoints discovered;
    private final AnnouncedEndpoints announced;
    private final boolean denyBrokerHosts;
    private final LongSupplier clock;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("healthmesh-endpoints", true));
    private List<HostPort> brokers = List.of();
    private List<HostPort> controllers = List.of();
    private final Map<String, List<InetAddress>> lastResolved = new HashMap<>();
    private boolean warned;
    private Map<InetAddress, Set<Integer>> learnt = Map.of();
    private Set<InetAddress> brokerHosts = Set.of();
    private Set<InetAddress> ownAddresses = Set.of();
    private long droppedWarnedAt = -1;

    /**
     * A refresher without announcements that denies the brokers' listed ports only.
     *
     * @param named the configured endpoint spellings ({@code host:port}), resolved again on every pass
     */
    ClusterEndpointsRefresher(Admin admin, List<String> named, DiscoveredEndpoints discovered) {
        this(admin, named, discovered, new AnnouncedEndpoints(), false, System::currentTimeMillis);
    }

    /**
     * @param named           the configured endpoint spellings ({@code host:port}), resolved again on every pass
     * @param announced       what the workers announce, read by the {@link AnnouncementFeed}
     * @param denyBrokerHosts whether every port of a broker's or controller's host is denied
     * @param clock           epoch ms, for the age of announcements
     */
    ClusterEndpointsRefresher(Admin admin, List<String> named, DiscoveredEndpoints discovered,
                              AnnouncedEndpoints announced, boolean denyBrokerHosts, LongSupplier clock) {
        this.admin = admin;
        this.named = List.copyOf(named);
        this.discovered = discovered;
        this.announced = announced;
        this.denyBrokerHosts = denyBrokerHosts;
        this.clock = clock;
    }

    /** Publishes the denied set again soon, on the refresher's thread, with the announcements as they are now. */
    void announcementsChanged() {
        try {
            thread.execute(this::publishSafely);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed
        }
    }

    private void publishSafely() {
        try {
            publish();
        } catch (RuntimeException e) {
            LOG.warn("cannot publish the announced endpoints; the previous ones stay denied: {}", e.toString());
        }
    }

    /** Runs the first pass now, on the refresher's thread, then one every {@value #EVERY_SECONDS} seconds. */
    ClusterEndpointsRefresher start() {
        thread.scheduleWithFixedDelay(this::refreshSafely, 0, EVERY_SECONDS, TimeUnit.SECONDS);
        return this;
    }

    private void refreshSafely() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warn("cannot refresh the cluster's endpoints; the previous ones stay denied: {}", e.toString());
        }
    }

    /** One pass: learns, resolves and replaces the denied set. */
    void refresh() {
        try {
            List<HostPort> found = new ArrayList<>();
            for (Node node : admin.describeCluster().nodes().get(METADATA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                found.add(new HostPort(node.host(), node.port()));
            }
            brokers = found;
        } catch (Exception e) {
            interruptedAgain(e);
            warnOnce("brokers", e);
        }
        try {
            List<HostPort> found = new ArrayList<>();
            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo()
                    .get(METADATA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            for (QuorumInfo.Node node : quorum.nodes().values()) {
                for (RaftVoterEndpoint endpoint : node.endpoints()) {
                    found.add(new HostPort(endpoint.host(), endpoint.port()));
                }
            }
            controllers = found;
        } catch (Exception e) {
            interruptedAgain(e);
            warnOnce("controllers", e);
        }
        Map<InetAddress, Set<Integer>> denied = new LinkedHashMap<>();
        Set<InetAddress> hosts = new HashSet<>();
        List<HostPort> all = new ArrayList<>(brokers);
        all.addAll(controllers);
        for (HostPort endpoint : all) {
            for (InetAddress address : resolve(endpoint.host())) {
                denied.computeIfAbsent(address, a -> new HashSet<>()).add(endpoint.port());
                hosts.add(address);
            }
        }
        for (String spelling : named) {
            HostPort endpoint = HostPort.parse(spelling);
            for (InetAddress address : resolve(endpoint.host())) {
                denied.computeIfAbsent(address, a -> new HashSet<>()).add(endpoint.port());
            }
        }
        Set<InetAddress> own = DiscoveredEndpoints.hostAddresses();
        synchronized (this) {
            learnt = denied;
            brokerHosts = denyBrokerHosts ? hosts : Set.of();
            ownAddresses = own;
        }
        publish();
        LOG.debug("denied cluster endpoints: {} brokers, {} controller listeners, {} addresses and names in all",
                brokers.size(), controllers.size(), discovered.size());
    }

    /** Replaces the denied set with what the last pass learnt and what the workers announce now. */
    synchronized void publish() {
        AnnouncedEndpoints.Denials fromWorkers = announced.denials(clock.getAsLong());
        if (fromWorkers.dropped() > 0 && fromWorkers.dropped() != droppedWarnedAt) {
            droppedWarnedAt = fromWorkers.dropped();
            LOG.warn("the workers announce more than {} endpoints: {} of them are not denied",
                    AnnouncedEndpoints.MAX_ENDPOINTS, fromWorkers.dropped());
        }
        discovered.replace(new DiscoveredEndpoints.Denied(learnt, fromWorkers.addresses(), fromWorkers.names(),
                ownAddresses, brokerHosts));
    }

    /** Endpoints announced by the workers and denied now, and those over the bound, for the metrics. */
    AnnouncedEndpoints.Denials announcedNow() {
        return announced.denials(clock.getAsLong());
    }

    /** Every address of {@code host} now, or what it had last time when the lookup fails; none for a wildcard. */
    private List<InetAddress> resolve(String host) {
        if (host.isEmpty() || host.equals("*")) {
            return List.of(); // a wildcard: the configured endpoint already stands for every address of this host
        }
        try {
            List<InetAddress> addresses = List.of(InetAddress.getAllByName(host));
            lastResolved.put(host, addresses);
            return addresses;
        } catch (UnknownHostException e) {
            return lastResolved.getOrDefault(host, List.of());
        }
    }

    private void warnOnce(String what, Exception e) {
        if (!warned) {
            warned = true;
            LOG.warn("cannot read the cluster's {} from its metadata (the last ones stay denied): {}", what,
                    e.getCause() != null ? e.getCause().toString() : e.toString());
        }
    }

    private static void interruptedAgain(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
