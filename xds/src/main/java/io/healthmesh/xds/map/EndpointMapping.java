package io.healthmesh.xds.map;

import com.google.common.net.InetAddresses;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * A group's view as an EDS {@link ClusterLoadAssignment}: one endpoint per member, grouped by locality, with a
 * {@code health_status} that makes a proxy route to exactly the served members (docs/BEHAVIOUR.md, "What proxies are
 * told"):
 * <ul>
 *   <li>served (in the routable set of the group's latest event, every member while the group fails open):
 *       {@code HEALTHY}, or {@code DRAINING} when its weight is 0 or a DRAIN maintenance window covers it (no new
 *       connections, the existing ones finish);</li>
 *   <li>not served, whatever its own state ({@code UNHEALTHY}, still {@code DETECTING}): {@code UNHEALTHY}. Never
 *       {@code UNKNOWN}: Envoy and gRPC route to {@code UNKNOWN} endpoints as if healthy.</li>
 * </ul>
 * Envoy and gRPC take only IP addresses in EDS: a member whose address is a host name is left out (and counted by
 * the caller through {@link Mapped#skipped()}). Pure: the same view gives the same bytes.
 */
public final class EndpointMapping {

    private final String zoneLabel;

    /** @param zoneLabel the member label whose value becomes the locality's zone (the region comes from the definition) */
    public EndpointMapping(String zoneLabel) {
        this.zoneLabel = requireNonNull(zoneLabel, "zoneLabel");
    }

    /** The assignment and how many members could not be put in it. */
    public record Mapped(ClusterLoadAssignment assignment, int skipped) {
    }

    /** The assignment of {@code view} under the cluster name {@code clusterName}. */
    public Mapped map(GroupView view, String clusterName) {
        requireNonNull(view, "view");
        requireNonNull(clusterName, "clusterName");
        Map<LocalityKey, List<LbEndpoint>> byLocality = new TreeMap<>();
        Map<LocalityKey, Long> weights = new TreeMap<>();
        int skipped = 0;
        for (Member m : view.members()) {
            if (!InetAddresses.isInetAddress(m.address()) || m.port() < 1 || m.port() > 65_535) {
                skipped++;
                continue;
            }
            LocalityKey locality = new LocalityKey(nullToEmpty(m.region()), m.labels().getOrDefault(zoneLabel, ""));
            byLocality.computeIfAbsent(locality, k -> new ArrayList<>()).add(endpoint(m));
            weights.merge(locality, (long) endpointWeight(m), Long::sum);
        }
        ClusterLoadAssignment.Builder cla = ClusterLoadAssignment.newBuilder().setClusterName(clusterName);
        byLocality.forEach((locality, endpoints) -> cla.addEndpoints(LocalityLbEndpoints.newBuilder()
                .setLocality(Locality.newBuilder().setRegion(locality.region()).setZone(locality.zone()))
                // gRPC ignores a locality without a weight; Envoy reads it only with locality-weighted balancing
                .setLoadBalancingWeight(UInt32Value.of((int) Math.min(weights.get(locality), Integer.MAX_VALUE)))
                .addAllLbEndpoints(endpoints)));
        return new Mapped(cla.build(), skipped);
    }

    /** The health status a proxy is told for {@code member}. */
    public static HealthStatus healthStatus(Member member) {
        if (!member.served()) {
            return HealthStatus.UNHEALTHY;
        }
        return member.weight() == 0 || member.draining() ? HealthStatus.DRAINING : HealthStatus.HEALTHY;
    }

    private static LbEndpoint endpoint(Member m) {
        return LbEndpoint.newBuilder()
                .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
                        SocketAddress.newBuilder().setAddress(m.address()).setPortValue(m.port()))))
                .setHealthStatus(healthStatus(m))
                .setLoadBalancingWeight(UInt32Value.of(endpointWeight(m)))
                .build();
    }

    /** Envoy refuses a weight of 0: a weight-0 member is told DRAINING instead and weighs 1. */
    private static int endpointWeight(Member m) {
        return Math.max(1, m.weight());
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private record LocalityKey(String region, String zone) implements Comparable<LocalityKey> {
        private static final Comparator<LocalityKey> ORDER =
                Comparator.comparing(LocalityKey::region).thenComparing(LocalityKey::zone);

        @Override
        public int compareTo(LocalityKey o) {
            return ORDER.compare(this, o);
        }
    }
}
