package io.healthmesh.xds.snapshot;

import io.envoyproxy.controlplane.cache.Resources.ResourceType;
import io.envoyproxy.controlplane.cache.VersionedResource;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.xds.map.ClusterNames;
import io.healthmesh.xds.map.EndpointMapping;
import io.healthmesh.xds.map.ProxyResources;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static io.healthmesh.xds.Views.group;
import static io.healthmesh.xds.Views.member;
import static org.assertj.core.api.Assertions.assertThat;

class SnapshotAssemblerTest {

    private static SnapshotAssembler assembler() {
        return assembler(ClusterNames.identity());
    }

    private static SnapshotAssembler assembler(ClusterNames names) {
        return new SnapshotAssembler(new EndpointMapping("zone"), new ProxyResources(5000), names);
    }

    private static final GroupView WEB = group("web", false, member(1, HEALTHY, true), member(2, UNHEALTHY, false));
    private static final GroupView API = group("api", false, member(3, HEALTHY, true));

    @Test
    void twoReplicasThatReadTheSameStateInAnotherOrderServeTheSameVersions() {
        SnapshotAssembler one = assembler();
        SnapshotAssembler two = assembler();

        one.apply(FollowedState.of(List.of(WEB)), Set.of("web"));
        XdsSnapshot a = one.apply(FollowedState.of(List.of(WEB, API)), Set.of("api")).proxy();
        XdsSnapshot b = two.apply(FollowedState.of(List.of(API, WEB)), Set.of("web", "api")).proxy();

        for (ResourceType type : List.of(ResourceType.CLUSTER, ResourceType.ENDPOINT)) {
            assertThat(a.version(type)).as("%s", type).isEqualTo(b.version(type));
            assertThat(versions(a, type)).isEqualTo(versions(b, type));
        }
    }

    @Test
    void aChangeOfOneGroupChangesOnlyThatGroupsVersionAndTheSetsNamingIt() {
        SnapshotAssembler assembler = assembler();
        XdsSnapshot before = assembler.apply(FollowedState.of(List.of(WEB, API)), Set.of("web", "api")).proxy();
        GroupView webDown = group("web", false, member(1, UNHEALTHY, false), member(2, HEALTHY, true));

        SnapshotAssembler.Snapshots after = assembler.apply(FollowedState.of(List.of(webDown, API)), Set.of("web"));

        assertThat(after.changed()).isEqualTo(1);
        XdsSnapshot now = after.proxy();
        assertThat(versions(now, ResourceType.ENDPOINT).get("api")).isEqualTo(versions(before, ResourceType.ENDPOINT).get("api"));
        assertThat(versions(now, ResourceType.ENDPOINT).get("web")).isNotEqualTo(versions(before, ResourceType.ENDPOINT).get("web"));
        // a state-of-the-world client that asked only for "api" has nothing new; one that asked for "web" has
        assertThat(now.version(ResourceType.ENDPOINT, List.of("api"))).isEqualTo(before.version(ResourceType.ENDPOINT, List.of("api")));
        assertThat(now.version(ResourceType.ENDPOINT, List.of("web"))).isNotEqualTo(before.version(ResourceType.ENDPOINT, List.of("web")));
        assertThat(now.version(ResourceType.CLUSTER)).isEqualTo(before.version(ResourceType.CLUSTER));
    }

    @Test
    void theSameViewAgainChangesNothing() {
        SnapshotAssembler assembler = assembler();
        XdsSnapshot before = assembler.apply(FollowedState.of(List.of(WEB)), Set.of("web")).proxy();

        SnapshotAssembler.Snapshots again = assembler.apply(FollowedState.of(List.of(WEB)), Set.of("web"));

        assertThat(again.changed()).isZero();
        assertThat(again.proxy().version(ResourceType.ENDPOINT)).isEqualTo(before.version(ResourceType.ENDPOINT));
    }

    @Test
    void aViewWithoutMembersKeepsWhatWasServedAndARemovedGroupIsWithdrawn() {
        SnapshotAssembler assembler = assembler();
        assembler.apply(FollowedState.of(List.of(WEB)), Set.of("web"));

        XdsSnapshot partial = assembler.apply(FollowedState.of(List.of(group("web", false))), Set.of("web")).proxy();
        assertThat(partial.endpoints().resources().get("web").getEndpoints(0).getLbEndpointsList())
                .extracting(e -> e.getHealthStatus()).containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);

        XdsSnapshot removed = assembler.apply(FollowedState.of(List.of()), Set.of("web")).proxy();
        assertThat(removed.endpoints().resources()).isEmpty();
        assertThat(removed.clusters().resources()).isEmpty();
        assertThat(assembler.groups()).isZero();
        assertThat(assembler.endpoints()).isZero();
    }

    @Test
    void onlyGrpcClientsGetListenersAndEveryoneGetsClustersAndEndpoints() {
        SnapshotAssembler.Snapshots s = assembler().apply(FollowedState.of(List.of(WEB, API)), Set.of("web", "api"));

        assertThat(s.grpc().listeners().resources()).containsOnlyKeys("web", "api");
        assertThat(s.proxy().listeners().resources()).isEmpty();
        assertThat(s.proxy().clusters().resources()).containsOnlyKeys("web", "api");
        assertThat(s.grpc().endpoints().resources()).containsOnlyKeys("web", "api");
    }

    @Test
    void aMappedNameIsServedAndAGroupWhoseIdIsThatNameIsLeftOut() {
        SnapshotAssembler assembler = assembler(ClusterNames.of(Map.of("api", "web")));

        XdsSnapshot s = assembler.apply(FollowedState.of(List.of(WEB, API)), Set.of("web", "api")).proxy();

        assertThat(s.endpoints().resources()).containsOnlyKeys("web");
        assertThat(s.endpoints().resources().get("web").getEndpoints(0).getLbEndpoints(0).getEndpoint()
                .getAddress().getSocketAddress().getAddress()).isEqualTo("10.0.0.3");
    }

    @Test
    void aResourceVersionIsItsContentsHashNotAnIdentity() {
        SnapshotAssembler assembler = assembler();
        String first = versions(assembler.apply(FollowedState.of(List.of(WEB)), Set.of("web")).proxy(),
                ResourceType.ENDPOINT).get("web");
        // a rebuilt but equal protobuf message gets the same version
        assertThat(ResourceVersions.versioned(new EndpointMapping("zone").map(WEB, "web").assignment()).version())
                .isEqualTo(first).hasSize(32);
    }

    private static Map<String, String> versions(XdsSnapshot s, ResourceType type) {
        Map<String, String> out = new java.util.TreeMap<>();
        @SuppressWarnings("unchecked")
        Map<String, VersionedResource<?>> resources = s.versionedResources(type);
        resources.forEach((k, v) -> out.put(k, v.version()));
        return out;
    }

}
