package io.healthmesh.haproxy.plan;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.follow.Member;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** HAProxy's admin state of a member under a DRAIN window: drain while served, maint when not served. */
class DesiredServersDrainTest {

    private static Member member(boolean served, boolean draining) {
        return new Member("a", "10.0.0.1", 80, 10, null, Map.of(), HealthStatus.HEALTHY, served, draining);
    }

    @Test
    void aServedDrainingMemberIsInDrain() {
        assertThat(DesiredServers.stateOf(member(true, true))).isEqualTo(ServerState.DRAIN);
        assertThat(DesiredServers.stateOf(member(true, false))).isEqualTo(ServerState.READY);
    }

    @Test
    void aDrainingMemberNotServedIsInMaintenance() {
        assertThat(DesiredServers.stateOf(member(false, true))).isEqualTo(ServerState.MAINT);
    }
}
