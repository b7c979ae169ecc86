package io.healthmesh.xds.map;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.v3.Percent;

import static java.util.Objects.requireNonNull;

/**
 * The resources around a group's endpoints, so that a client needs only a bootstrap naming healthmesh:
 * <ul>
 *   <li>a CDS {@link Cluster} of type EDS whose endpoints come over the same ADS stream, with Envoy's panic threshold
 *       at 0 ({@code common_lb_config.healthy_panic_threshold}): whether a group is routed to all its members is the
 *       aggregator's fail-open decision, already in the endpoints' health, and never Envoy's own;</li>
 *   <li>for gRPC clients only (proxyless, {@code xds:///<cluster>}), an LDS {@link Listener} of the same name whose
 *       API listener routes every call to that cluster. Envoy proxies get no listener: their listeners are their own.</li>
 * </ul>
 */
public final class ProxyResources {

    /** The filter gRPC and Envoy expect last in an HTTP connection manager. */
    static final String ROUTER_FILTER = "envoy.filters.http.router";

    private final Duration connectTimeout;

    /** @param connectTimeoutMs the clusters' {@code connect_timeout} (Envoy's own default is 5 s) */
    public ProxyResources(long connectTimeoutMs) {
        if (connectTimeoutMs < 1) {
            throw new IllegalArgumentException("connectTimeoutMs: " + connectTimeoutMs + " (expected: >= 1)");
        }
        this.connectTimeout = Duration.newBuilder().setSeconds(connectTimeoutMs / 1000)
                .setNanos((int) (connectTimeoutMs % 1000) * 1_000_000).build();
    }

    /** The EDS cluster named {@code clusterName}, its endpoints from the ADS stream under the same name. */
    public Cluster cluster(String clusterName) {
        requireNonNull(clusterName, "clusterName");
        return Cluster.newBuilder()
                .setName(clusterName)
                .setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder()
                        .setServiceName(clusterName)
                        .setEdsConfig(ConfigSource.newBuilder()
                                .setAds(AggregatedConfigSource.getDefaultInstance())
                                .setResourceApiVersion(ApiVersion.V3)))
                .setConnectTimeout(connectTimeout)
                .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
                .setCommonLbConfig(Cluster.CommonLbConfig.newBuilder()
                        .setHealthyPanicThreshold(Percent.newBuilder().setValue(0)))
                .build();
    }

    /** The gRPC API listener named {@code clusterName} that routes every call to the cluster of that name. */
    public Listener grpcListener(String clusterName) {
        requireNonNull(clusterName, "clusterName");
        RouteConfiguration routes = RouteConfiguration.newBuilder()
                .setName(clusterName)
                .addVirtualHosts(VirtualHost.newBuilder()
                        .setName(clusterName)
                        .addDomains("*")
                        .addRoutes(Route.newBuilder()
                                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                                .setRoute(RouteAction.newBuilder().setCluster(clusterName))))
                .build();
        HttpConnectionManager manager = HttpConnectionManager.newBuilder()
                .setRouteConfig(routes)
                .addHttpFilters(HttpFilter.newBuilder()
                        .setName(ROUTER_FILTER)
                        .setTypedConfig(Any.pack(Router.getDefaultInstance())))
                .build();
        return Listener.newBuilder()
                .setName(clusterName)
                .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(manager)))
                .build();
    }
}
