package io.healthmesh.xds.map;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static io.healthmesh.xds.Views.group;
import static io.healthmesh.xds.Views.member;
import static org.assertj.core.api.Assertions.assertThat;

class EndpointMappingTest {

    private final EndpointMapping mapping = new EndpointMapping("zone");

    @Test
    void servedMembersAreHealthyAndTheOthersUnhealthyWhateverTheirOwnState() {
        GroupView view = group("web", false, member(1, HEALTHY, true), member(2, DISABLED, true),
                member(3, UNHEALTHY, false), member(4, DETECTING, false));

        ClusterLoadAssignment cla = mapping.map(view, "web").assignment();

        assertThat(cla.getClusterName()).isEqualTo("web");
        assertThat(healthByAddress(cla)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "10.0.0.1", HealthStatus.HEALTHY, "10.0.0.2", HealthStatus.HEALTHY,
                "10.0.0.3", HealthStatus.UNHEALTHY, "10.0.0.4", HealthStatus.UNHEALTHY));
    }

    @Test
    void aGroupThatFailsOpenServesEveryMemberHealthySoNoProxyThresholdDecidesAgain() {
        // the follower marks every member served while the group fails open
        GroupView view = group("web", true, member(1, UNHEALTHY, true), member(2, UNHEALTHY, true),
                member(3, DETECTING, true));

        ClusterLoadAssignment cla = mapping.map(view, "web").assignment();

        assertThat(healthByAddress(cla).values()).containsOnly(HealthStatus.HEALTHY).hasSize(3);
    }

    @Test
    void neverTellsUnknownWhichProxiesRouteToAsIfHealthy() {
        for (var status : io.healthmesh.core.health.HealthStatus.values()) {
            for (boolean served : new boolean[] {true, false}) {
                assertThat(EndpointMapping.healthStatus(member(1, status, served)))
                        .isNotEqualTo(HealthStatus.UNKNOWN);
            }
        }
    }

    @Test
    void weightAddressPortAndLocalityComeFromTheMember() {
        Member a = new Member("a", "10.1.0.1", 9000, 30, "eu-west", Map.of("zone", "eu-west-1a"), HEALTHY, true);
        Member b = new Member("b", "10.1.0.2", 9001, 10, "eu-west", Map.of("zone", "eu-west-1a"), HEALTHY, true);
        Member c = new Member("c", "fd00::3", 9002, 5, null, Map.of(), HEALTHY, true);

        ClusterLoadAssignment cla = mapping.map(GroupView.of("g", false, List.of(a, b, c), false), "g").assignment();

        assertThat(cla.getEndpointsList()).hasSize(2);
        LocalityLbEndpoints none = cla.getEndpoints(0);
        assertThat(none.getLocality().getRegion()).isEmpty();
        assertThat(none.getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress().getAddress()).isEqualTo("fd00::3");
        assertThat(none.getLoadBalancingWeight().getValue()).isEqualTo(5);
        LocalityLbEndpoints eu = cla.getEndpoints(1);
        assertThat(eu.getLocality().getRegion()).isEqualTo("eu-west");
        assertThat(eu.getLocality().getZone()).isEqualTo("eu-west-1a");
        assertThat(eu.getLoadBalancingWeight().getValue()).isEqualTo(40);
        LbEndpoint first = eu.getLbEndpoints(0);
        assertThat(first.getEndpoint().getAddress().getSocketAddress().getPortValue()).isEqualTo(9000);
        assertThat(first.getLoadBalancingWeight().getValue()).isEqualTo(30);
    }

    @Test
    void aServedMemberOfWeightZeroIsDrainingWithAWeightEnvoyAccepts() {
        Member zero = new Member("z", "10.0.0.9", 80, 0, "eu", Map.of(), HEALTHY, true);

        LbEndpoint e = mapping.map(GroupView.of("g", false, List.of(zero), false), "g").assignment()
                .getEndpoints(0).getLbEndpoints(0);

        assertThat(e.getHealthStatus()).isEqualTo(HealthStatus.DRAINING);
        assertThat(e.getLoadBalancingWeight().getValue()).isEqualTo(1);
    }

    @Test
    void aMemberAddressedByHostNameIsLeftOutAndCounted() {
        Member named = new Member("n", "backend.example", 80, 10, "eu", Map.of(), HEALTHY, true);

        EndpointMapping.Mapped mapped = mapping.map(
                GroupView.of("g", false, List.of(named, member(1, HEALTHY, true)), false), "g");

        assertThat(mapped.skipped()).isEqualTo(1);
        assertThat(healthByAddress(mapped.assignment())).containsOnlyKeys("10.0.0.1");
    }

    @Test
    void theSameViewGivesTheSameBytes() {
        GroupView one = group("web", false, member(2, HEALTHY, true), member(1, UNHEALTHY, false));
        GroupView two = group("web", false, member(1, UNHEALTHY, false), member(2, HEALTHY, true));

        assertThat(mapping.map(one, "web").assignment().toByteArray())
                .isEqualTo(mapping.map(two, "web").assignment().toByteArray());
    }

    private static Map<String, HealthStatus> healthByAddress(ClusterLoadAssignment cla) {
        return cla.getEndpointsList().stream().flatMap(l -> l.getLbEndpointsList().stream())
                .collect(Collectors.toMap(e -> e.getEndpoint().getAddress().getSocketAddress().getAddress(),
                        LbEndpoint::getHealthStatus));
    }
}
