package io.healthmesh.dnsfollow.plan;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.dnsfollow.plan.Views.row;
import static io.healthmesh.dnsfollow.plan.Views.set;
import static org.assertj.core.api.Assertions.assertThat;

/** A draining member leaves the name's answer, unless every served member is draining (a drain never empties it). */
class DesiredRecordsDrainTest {

    private static Member member(String id, String address, boolean draining) {
        return new Member(id, address, 80, 10, null, Map.of(), HealthStatus.HEALTHY, true, draining);
    }

    @Test
    void aDrainingMemberIsNotAnswered() {
        GroupView api = GroupView.of("api", false, List.of(member("a", "10.0.0.1", true),
                member("b", "10.0.0.2", false)), false);
        assertThat(DesiredRecords.of(FollowedState.of(List.of(api)), row("api", "api.example.com.")).records())
                .isEqualTo(set("10.0.0.2"));
    }

    @Test
    void whenEveryServedMemberDrainsTheyAreAllStillAnswered() {
        GroupView api = GroupView.of("api", false, List.of(member("a", "10.0.0.1", true),
                member("b", "10.0.0.2", true)), false);
        assertThat(DesiredRecords.of(FollowedState.of(List.of(api)), row("api", "api.example.com.")).records())
                .isEqualTo(set("10.0.0.1", "10.0.0.2"));
    }
}
