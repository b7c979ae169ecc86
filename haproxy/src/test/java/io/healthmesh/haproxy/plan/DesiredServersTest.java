package io.healthmesh.haproxy.plan;

import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.Member;
import io.healthmesh.haproxy.mapping.BackendMapping;
import io.healthmesh.haproxy.mapping.HaproxyMapping;
import io.healthmesh.haproxy.runtime.RuntimeAddress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static io.healthmesh.haproxy.plan.Views.group;
import static io.healthmesh.haproxy.plan.Views.member;
import static org.assertj.core.api.Assertions.assertThat;

class DesiredServersTest {

    private static final BackendMapping API = new BackendMapping("api", "be_api", "{id}", null);

    private static HaproxyMapping mapping(BackendMapping... backends) {
        return new HaproxyMapping(List.of(RuntimeAddress.parse("/h.sock")), List.of(backends));
    }

    private static Map<ServerState, List<String>> byState(DesiredBackend b) {
        return Map.of(ServerState.READY, b.servers().stream().filter(s -> s.state() == ServerState.READY)
                        .map(DesiredServer::name).toList(),
                ServerState.MAINT, b.servers().stream().filter(s -> s.state() == ServerState.MAINT)
                        .map(DesiredServer::name).toList());
    }

    @Test
    void servedMembersAreReadyAndTheOthersStayAsServersInMaintenance() {
        FollowedState state = FollowedState.of(List.of(group("api", false, member("a", HEALTHY, true),
                member("b", UNHEALTHY, false), member("c", DETECTING, false), member("d", DISABLED, true))));

        DesiredBackend b = DesiredServers.of(state, mapping(API)).get("be_api");

        assertThat(byState(b).get(ServerState.READY)).containsExactly("a", "d");
        assertThat(byState(b).get(ServerState.MAINT)).containsExactly("b", "c");
        assertThat(b.servers().get(0)).isEqualTo(new DesiredServer("a", "a", member("a", HEALTHY, true).address(),
                8080, 10, ServerState.READY));
        assertThat(b.problems()).isEmpty();
    }

    @Test
    void failOpenAsTheFollowerSaysItIsEveryMemberReady() {
        // the follower marks every member served in fail-open; the mapping takes that as it is
        FollowedState state = FollowedState.of(List.of(group("api", true, member("a", UNHEALTHY, true),
                member("b", UNHEALTHY, true))));

        assertThat(byState(DesiredServers.of(state, mapping(API)).get("be_api")).get(ServerState.READY))
                .containsExactly("a", "b");
    }

    @Test
    void theServedFlagDecidesNotTheStatus() {
        // a HEALTHY member the group's event does not list yet is not served: no second rule here
        FollowedState state = FollowedState.of(List.of(group("api", false, member("a", HEALTHY, false),
                member("b", HEALTHY, true))));

        assertThat(byState(DesiredServers.of(state, mapping(API)).get("be_api")).get(ServerState.READY))
                .containsExactly("b");
    }

    @Test
    void aGroupTheStateDoesNotHoldLeavesItsBackendAlone() {
        FollowedState state = FollowedState.of(List.of(group("web", false, member("w", HEALTHY, true))));

        Map<String, DesiredBackend> desired = DesiredServers.of(state,
                mapping(API, new BackendMapping("web", "be_web", "{id}", null)));

        assertThat(desired).containsOnlyKeys("be_web");
    }

    @Test
    void oneGroupMayFeedSeveralBackendsWithTheirOwnNames() {
        FollowedState state = FollowedState.of(List.of(group("api", false, member("a", HEALTHY, true))));

        Map<String, DesiredBackend> desired = DesiredServers.of(state,
                mapping(API, new BackendMapping("api", "be_api_v2", "v2-{id}", null)));

        assertThat(desired.get("be_api").servers()).extracting(DesiredServer::name).containsExactly("a");
        assertThat(desired.get("be_api_v2").servers()).extracting(DesiredServer::name).containsExactly("v2-a");
    }

    @Test
    void theWeightComesFromTheLabelWhenItIsAWeightElseFromTheDefinition() {
        BackendMapping weighted = new BackendMapping("api", "be_api", "{id}", "lb.weight");
        Member labelled = new Member("a", "10.0.0.1", 80, 10, null, Map.of("lb.weight", "200"), HEALTHY, true);
        Member wrong = new Member("b", "10.0.0.2", 80, 7, null, Map.of("lb.weight", "heavy"), HEALTHY, true);
        Member tooBig = new Member("c", "10.0.0.3", 80, 7, null, Map.of("lb.weight", "257"), HEALTHY, true);
        Member plain = new Member("d", "10.0.0.4", 80, 0, null, Map.of(), HEALTHY, true);
        FollowedState state = FollowedState.of(List.of(group("api", false, labelled, wrong, tooBig, plain)));

        DesiredBackend b = DesiredServers.of(state, mapping(weighted)).get("be_api");

        assertThat(b.servers()).extracting(DesiredServer::weight).containsExactly(200, 7, 7, 0);
        assertThat(b.problems()).containsExactly(
                "target b: label lb.weight=heavy is not a weight 0..256; its definition's weight applies",
                "target c: label lb.weight=257 is not a weight 0..256; its definition's weight applies");
    }

    @Test
    void twoIdsWithOneServerNameKeepTheFirstAndSaySo() {
        FollowedState state = FollowedState.of(List.of(group("api", false, member("x.1", HEALTHY, true),
                member("x_1", HEALTHY, true))));
        BackendMapping constant = new BackendMapping("api", "be_api", "{id}", null);

        DesiredBackend b = DesiredServers.of(state, mapping(constant)).get("be_api");

        assertThat(b.servers()).extracting(DesiredServer::name).containsExactly("x.1", "x_1");
        assertThat(b.problems()).isEmpty();

        Member clash = new Member("a b", "10.0.0.1", 80, 1, null, Map.of(), HEALTHY, true);
        String name = io.healthmesh.haproxy.mapping.ServerNames.name("{id}", "a b");
        Member other = new Member(name, "10.0.0.2", 80, 1, null, Map.of(), HEALTHY, true);
        DesiredBackend clashing = DesiredServers.of(FollowedState.of(List.of(group("api", false, clash, other))),
                mapping(constant)).get("be_api");
        assertThat(clashing.servers()).extracting(DesiredServer::targetId).containsExactly("a b");
        assertThat(clashing.problems()).singleElement().asString().contains("would be server " + name);
    }

    @Test
    void anAddressHaproxyCannotTakeIsLeftOutAndReported() {
        Member bad = new Member("a", "10.0.0.1 backup", 80, 1, null, Map.of(), HEALTHY, true);
        DesiredBackend b = DesiredServers.of(FollowedState.of(List.of(group("api", false, bad,
                member("b", HEALTHY, true)))), mapping(API)).get("be_api");

        assertThat(b.servers()).extracting(DesiredServer::name).containsExactly("b");
        assertThat(b.problems()).singleElement().asString().contains("target a: address 10.0.0.1 backup:80");
    }
}
