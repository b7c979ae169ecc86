package io.healthmesh.xds.map;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProxyResourcesTest {

    private final ProxyResources resources = new ProxyResources(2500);

    @Test
    void theClusterTakesItsEndpointsFromAdsAndNeverPanics() {
        Cluster c = resources.cluster("web");

        assertThat(c.getName()).isEqualTo("web");
        assertThat(c.getType()).isEqualTo(Cluster.DiscoveryType.EDS);
        assertThat(c.getEdsClusterConfig().getServiceName()).isEqualTo("web");
        assertThat(c.getEdsClusterConfig().getEdsConfig().hasAds()).isTrue();
        assertThat(c.getCommonLbConfig().getHealthyPanicThreshold().getValue()).isZero();
        assertThat(c.getConnectTimeout().getSeconds()).isEqualTo(2);
        assertThat(c.getConnectTimeout().getNanos()).isEqualTo(500_000_000);
    }

    @Test
    void theGrpcListenerRoutesEveryCallToTheCluster() throws Exception {
        Listener l = resources.grpcListener("web");

        HttpConnectionManager hcm = l.getApiListener().getApiListener().unpack(HttpConnectionManager.class);
        var route = hcm.getRouteConfig().getVirtualHosts(0).getRoutes(0);
        assertThat(l.getName()).isEqualTo("web");
        assertThat(hcm.getRouteConfig().getVirtualHosts(0).getDomainsList()).containsExactly("*");
        assertThat(route.getMatch().getPrefix()).isEmpty();
        assertThat(route.getRoute().getCluster()).isEqualTo("web");
        assertThat(hcm.getHttpFilters(hcm.getHttpFiltersCount() - 1).getName()).isEqualTo(ProxyResources.ROUTER_FILTER);
    }

    @Test
    void clusterNamesComeFromTheMappingOrTheGroupId() {
        ClusterNames names = ClusterNames.of(Map.of("pool-1", "backend"));

        assertThat(names.nameOf("pool-1")).isEqualTo("backend");
        assertThat(names.nameOf("pool-2")).isEqualTo("pool-2");
        assertThat(names.ownerOf("backend")).isEqualTo("pool-1");
        assertThat(names.ownerOf("pool-2")).isEqualTo("pool-2");
    }

    @Test
    void twoGroupsUnderOneNameOrABadNameAreRefused() {
        assertThatThrownBy(() -> ClusterNames.of(Map.of("a", "same", "b", "same")))
                .hasMessage("clusters.file: b=same (expected: a name no other group has; a has it)");
        assertThatThrownBy(() -> ClusterNames.of(Map.of("a", "has space")))
                .hasMessage("clusters.file: a=has space (expected: a name of 1-255 of [A-Za-z0-9._:/-])");
    }
}
