package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

class FailOpenPolicyTest {

    @Test
    void routableAreTheHealthyAndDisabledMembersSorted() {
        GroupVerdict v = FailOpenPolicy.evaluate(Map.of("c", HEALTHY, "a", DISABLED, "b", UNHEALTHY, "d", DETECTING));
        assertThat(v).isEqualTo(new GroupVerdict(List.of("a", "c"), false, 4, 1, 1, 1, 1));
    }

    @Test
    void noHealthyOrDisabledMemberFailsOpenAndRoutesEveryMember() {
        GroupVerdict v = FailOpenPolicy.evaluate(Map.of("b", UNHEALTHY, "a", UNHEALTHY, "c", DETECTING));
        assertThat(v.failOpen()).isTrue();
        assertThat(v.routable()).containsExactly("a", "b", "c");
        assertThat(v.unhealthy()).isEqualTo(2);
        assertThat(v.detecting()).isEqualTo(1);
    }

    @Test
    void aGroupWithADisabledMemberNeverFailsOpen() {
        GroupVerdict v = FailOpenPolicy.evaluate(Map.of("a", UNHEALTHY, "b", UNHEALTHY, "off", DISABLED));
        assertThat(v.failOpen()).isFalse();
        assertThat(v.routable()).containsExactly("off");
    }

    @Test
    void aGroupWithOneHealthyMemberNeverFailsOpen() {
        GroupVerdict v = FailOpenPolicy.evaluate(Map.of("a", UNHEALTHY, "b", HEALTHY, "c", UNHEALTHY));
        assertThat(v.failOpen()).isFalse();
        assertThat(v.routable()).containsExactly("b");
    }

    @Test
    void anEmptyGroupRoutesNothingAndDoesNotFailOpen() {
        assertThat(FailOpenPolicy.evaluate(Map.of())).isEqualTo(new GroupVerdict(List.of(), false, 0, 0, 0, 0, 0));
    }

    @Test
    void everyCombinationOfThreeMembersFollowsTheRule() {
        HealthStatus[] all = HealthStatus.values();
        for (HealthStatus a : all) {
            for (HealthStatus b : all) {
                for (HealthStatus c : all) {
                    GroupVerdict v = FailOpenPolicy.evaluate(Map.of("a", a, "b", b, "c", c));
                    boolean anyRoutable = a.isRoutable() || b.isRoutable() || c.isRoutable();
                    assertThat(v.failOpen()).isEqualTo(!anyRoutable);
                    assertThat(v.routable()).hasSize(anyRoutable
                            ? (a.isRoutable() ? 1 : 0) + (b.isRoutable() ? 1 : 0) + (c.isRoutable() ? 1 : 0) : 3);
                    assertThat(v.healthy() + v.unhealthy() + v.detecting() + v.disabled()).isEqualTo(3);
                }
            }
        }
    }

    @Test
    void routingDiffersOnlyBySetOrFlag() {
        GroupVerdict healthy = FailOpenPolicy.evaluate(Map.of("a", HEALTHY, "b", UNHEALTHY));
        GroupVerdict detectingInsteadOfUnhealthy = FailOpenPolicy.evaluate(Map.of("a", HEALTHY, "b", DETECTING));
        assertThat(healthy.routesDifferentlyFrom(detectingInsteadOfUnhealthy)).isFalse();
        assertThat(healthy.routesDifferentlyFrom(FailOpenPolicy.evaluate(Map.of("a", UNHEALTHY, "b", UNHEALTHY))))
                .isTrue();
        assertThat(healthy.routesDifferentlyFrom(null)).isTrue();
    }

    @Test
    void groupMembersJoinUpdateAndLeave() {
        GroupMembers g = GroupMembers.empty("web").with("a", HEALTHY).with("b", UNHEALTHY);
        assertThat(g.verdict().routable()).containsExactly("a");
        g = g.with("a", UNHEALTHY);
        assertThat(g.verdict().failOpen()).isTrue();
        g = g.without("a").without("missing");
        assertThat(g.asMap()).containsExactly(Map.entry("b", UNHEALTHY));
        assertThat(g.without("b").isEmpty()).isTrue();
    }
}
