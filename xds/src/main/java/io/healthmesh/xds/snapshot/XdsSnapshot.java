package io.healthmesh.xds.snapshot;

import io.envoyproxy.controlplane.cache.SnapshotResources;
import io.envoyproxy.controlplane.cache.VersionedResource;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A java-control-plane snapshot whose versions are {@link ResourceVersions}: per resource (what delta clients
 * compare) and per requested set (what state-of-the-world clients compare). Built through the library's public
 * {@link SnapshotResources#create(Iterable, io.envoyproxy.controlplane.cache.ResourceVersionResolver)}: its own
 * {@code Snapshot.create} versions every resource with an identity hash, which would differ between replicas.
 * Routes and secrets are never served (the gRPC listeners carry their routes inline).
 */
public final class XdsSnapshot extends Snapshot {

    private final SnapshotResources<Cluster> clusters;
    private final SnapshotResources<ClusterLoadAssignment> endpoints;
    private final SnapshotResources<Listener> listeners;
    private final SnapshotResources<RouteConfiguration> routes;
    private final SnapshotResources<Secret> secrets;

    public XdsSnapshot(SnapshotResources<Cluster> clusters, SnapshotResources<ClusterLoadAssignment> endpoints,
                       SnapshotResources<Listener> listeners) {
        this.clusters = requireNonNull(clusters, "clusters");
        this.endpoints = requireNonNull(endpoints, "endpoints");
        this.listeners = requireNonNull(listeners, "listeners");
        this.routes = resources(Map.of());
        this.secrets = resources(Map.of());
    }

    /** The resources of one type, keyed by name, with their {@link ResourceVersions}; the map is copied. */
    public static <T extends com.google.protobuf.Message> SnapshotResources<T> resources(
            Map<String, VersionedResource<T>> byName) {
        Map<String, VersionedResource<T>> copy = Map.copyOf(requireNonNull(byName, "byName"));
        return SnapshotResources.create(List.copyOf(copy.values()), ResourceVersions.resolver(copy));
    }

    @Override
    public SnapshotResources<Cluster> clusters() {
        return clusters;
    }

    @Override
    public SnapshotResources<ClusterLoadAssignment> endpoints() {
        return endpoints;
    }

    @Override
    public SnapshotResources<Listener> listeners() {
        return listeners;
    }

    @Override
    public SnapshotResources<RouteConfiguration> routes() {
        return routes;
    }

    @Override
    public SnapshotResources<Secret> secrets() {
        return secrets;
    }

    /**
     * The same as the library's: restated because its two declarations differ in their generic return types
     * ({@code VersionedResource<?>} and {@code VersionedResource<? extends Message>}), which javac refuses in a
     * subclass compiled outside the library; the raw return type satisfies both.
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Map versionedResources(io.envoyproxy.controlplane.cache.Resources.ResourceType resourceType) {
        return super.versionedResources(resourceType);
    }

    @Override
    public String toString() {
        return "XdsSnapshot[clusters=" + clusters.version() + ", endpoints=" + endpoints.version() + ", listeners="
                + listeners.version() + "]";
    }
}
