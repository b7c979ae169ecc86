package io.healthmesh.xds.snapshot;

import io.envoyproxy.controlplane.cache.SnapshotResources;
import io.envoyproxy.controlplane.cache.VersionedResource;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.xds.map.ClusterNames;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Turns the follower's state into the snapshots the xDS cache serves, one per {@link ClientKind}, rebuilding only the
 * groups that changed. A group is served under its cluster name ({@link ClusterNames}) as an EDS cluster, its
 * endpoints, and for gRPC clients a listener. Rules kept here, once:
 * <ul>
 *   <li>a group whose view has no member at all keeps what was served for it (a view without members is a partial
 *       read, never a verdict; a deleted group leaves the state instead and is withdrawn);</li>
 *   <li>a group whose cluster name belongs to another group (a mapping gave another group that name) is not served,
 *       and said once in the log.</li>
 * </ul>
 * Not thread-safe: the follower's thread alone calls {@link #apply}.
 */
public final class SnapshotAssembler {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotAssembler.class);

    private final EndpointMapping mapping;
    private final ProxyResources proxies;
    private final ClusterNames names;
    /** Group id -> what is served for it. */
    private final Map<String, Served> served = new HashMap<>();
    private final Map<String, VersionedResource<ClusterLoadAssignment>> endpoints = new HashMap<>();
    private final Map<String, VersionedResource<Cluster>> clusters = new HashMap<>();
    private final Map<String, VersionedResource<Listener>> listeners = new HashMap<>();
    private final Set<String> conflicts = new HashSet<>();
    private SnapshotResources<ClusterLoadAssignment> endpointResources = XdsSnapshot.resources(Map.of());
    private SnapshotResources<Cluster> clusterResources = XdsSnapshot.resources(Map.of());
    private SnapshotResources<Listener> listenerResources = XdsSnapshot.resources(Map.of());
    private final SnapshotResources<Listener> noListeners = XdsSnapshot.resources(Map.of());
    private long endpointCount;
    private long skippedCount;

    public SnapshotAssembler(EndpointMapping mapping, ProxyResources proxies, ClusterNames names) {
        this.mapping = requireNonNull(mapping, "mapping");
        this.proxies = requireNonNull(proxies, "proxies");
        this.names = requireNonNull(names, "names");
    }

    /** What a group is served as. */
    private record Served(String clusterName, int endpoints, int skipped) {
    }

    /**
     * The snapshots after {@code changedGroups} changed in {@code state}.
     *
     * @param changed how many cluster assignments changed (0: the snapshots equal the previous ones)
     */
    public record Snapshots(XdsSnapshot proxy, XdsSnapshot grpc, int changed) {

        /** The snapshot for clients of {@code kind}. */
        public XdsSnapshot of(ClientKind kind) {
            return kind == ClientKind.GRPC ? grpc : proxy;
        }
    }

    /** Applies the changed groups of {@code state} and returns the snapshots to serve. */
    public Snapshots apply(FollowedState state, Set<String> changedGroups) {
        requireNonNull(state, "state");
        int changed = 0;
        boolean membership = false;
        for (String groupId : changedGroups) {
            String name = names.nameOf(groupId);
            if (!names.ownerOf(name).equals(groupId)) {
                if (conflicts.add(groupId)) {
                    LOG.warn("group {} is not served: its cluster name {} is mapped to group {} (clusters.file)",
                            groupId, name, names.ownerOf(name));
                }
                continue;
            }
            Optional<GroupView> view = state.group(groupId);
            if (view.isEmpty()) {
                if (withdraw(groupId)) {
                    changed++;
                    membership = true;
                }
            } else if (!view.get().members().isEmpty()) {
                Served before = served.get(groupId);
                if (serve(view.get(), name)) {
                    changed++;
                }
                membership |= before == null;
            }
        }
        if (changed > 0) {
            endpointResources = XdsSnapshot.resources(endpoints);
        }
        if (membership) {
            clusterResources = XdsSnapshot.resources(clusters);
            listenerResources = XdsSnapshot.resources(listeners);
        }
        return new Snapshots(new XdsSnapshot(clusterResources, endpointResources, noListeners),
                new XdsSnapshot(clusterResources, endpointResources, listenerResources), changed);
    }

    /** True when the group's assignment changed. */
    private boolean serve(GroupView view, String name) {
        EndpointMapping.Mapped mapped = mapping.map(view, name);
        VersionedResource<ClusterLoadAssignment> assignment = ResourceVersions.versioned(mapped.assignment());
        VersionedResource<ClusterLoadAssignment> previous = endpoints.put(name, assignment);
        Served before = served.put(view.groupId(), new Served(name, mapped.assignment().getEndpointsList().stream()
                .mapToInt(l -> l.getLbEndpointsCount()).sum(), mapped.skipped()));
        if (before != null) {
            endpointCount -= before.endpoints();
            skippedCount -= before.skipped();
        } else {
            clusters.put(name, ResourceVersions.versioned(proxies.cluster(name)));
            listeners.put(name, ResourceVersions.versioned(proxies.grpcListener(name)));
        }
        Served now = served.get(view.groupId());
        endpointCount += now.endpoints();
        skippedCount += now.skipped();
        if (now.skipped() > 0 && (before == null || before.skipped() != now.skipped())) {
            LOG.warn("group {}: {} member(s) left out: xDS endpoints need an IP address, not a host name",
                    view.groupId(), now.skipped());
        }
        return previous == null || !previous.version().equals(assignment.version());
    }

    private boolean withdraw(String groupId) {
        Served before = served.remove(groupId);
        if (before == null) {
            return false;
        }
        endpoints.remove(before.clusterName());
        clusters.remove(before.clusterName());
        listeners.remove(before.clusterName());
        endpointCount -= before.endpoints();
        skippedCount -= before.skipped();
        return true;
    }

    /** Groups served now. */
    public int groups() {
        return served.size();
    }

    /** Endpoints in the served assignments. */
    public long endpoints() {
        return endpointCount;
    }

    /** Members left out because their address is a host name. */
    public long skipped() {
        return skippedCount;
    }
}
