package io.healthmesh.xds.map;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.healthmesh.follow.Member;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A member under a DRAIN window is told DRAINING while served, UNHEALTHY when not served (as any other). */
class EndpointMappingDrainTest {

    private static Member member(boolean served, boolean draining) {
        return new Member("a", "10.0.0.1", 80, 10, null, Map.of(), io.healthmesh.core.health.HealthStatus.HEALTHY,
                served, draining);
    }

    @Test
    void aServedDrainingMemberIsDraining() {
        assertThat(EndpointMapping.healthStatus(member(true, true))).isEqualTo(HealthStatus.DRAINING);
        assertThat(EndpointMapping.healthStatus(member(true, false))).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void aDrainingMemberNotServedStaysUnhealthy() {
        assertThat(EndpointMapping.healthStatus(member(false, true))).isEqualTo(HealthStatus.UNHEALTHY);
    }
}
