package io.healthmesh.core.health;

import org.junit.jupiter.api.Test;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

/** When a change produces the group's event or tombstone, as the aggregator's group task and replay both ask. */
class GroupUpdateTest {

    @Test
    void theFirstMemberProducesAnEventAndTheLastOneLeavingATombstone() {
        GroupUpdate first = GroupUpdate.member(GroupState.EMPTY, null, DETECTING);
        assertThat(first.effect()).isEqualTo(GroupUpdate.Effect.EVENT);
        assertThat(first.after().counts().members()).isEqualTo(1);
        GroupUpdate last = GroupUpdate.member(first.after(), DETECTING, null);
        assertThat(last.effect()).isEqualTo(GroupUpdate.Effect.TOMBSTONE);
        assertThat(last.after().counts().isEmpty()).isTrue();
    }

    @Test
    void aRoutingChangeProducesAnEventAndAChangeWithinTheUnservedSetDoesNot() {
        GroupState twoHealthy = GroupState.EMPTY.move(null, HEALTHY).move(null, HEALTHY);
        GroupUpdate down = GroupUpdate.member(twoHealthy, HEALTHY, UNHEALTHY);
        assertThat(down.effect()).as("a member leaves the routable set").isEqualTo(GroupUpdate.Effect.EVENT);
        assertThat(down.after().failOpen()).isFalse();
        GroupUpdate detecting = GroupUpdate.member(down.after(), UNHEALTHY, DETECTING);
        assertThat(detecting.effect()).as("unserved before and after").isEqualTo(GroupUpdate.Effect.NONE);
        assertThat(detecting.after().counts().detecting()).isEqualTo(1);
        GroupUpdate same = GroupUpdate.member(down.after(), UNHEALTHY, UNHEALTHY);
        assertThat(same.effect()).isEqualTo(GroupUpdate.Effect.NONE);
        assertThat(same.after()).isSameAs(down.after());
        GroupUpdate allDown = GroupUpdate.member(down.after(), HEALTHY, UNHEALTHY);
        assertThat(allDown.effect()).isEqualTo(GroupUpdate.Effect.EVENT);
        assertThat(allDown.after().failOpenReason()).isEqualTo(FailOpenReason.NO_HEALTHY_MEMBER);
    }

    @Test
    void aThresholdIsAnnouncedOnlyWhenItChangesTheVerdictOfAGroupWithMembers() {
        GroupState oneOfFour = GroupState.EMPTY.move(null, HEALTHY).move(null, UNHEALTHY).move(null, UNHEALTHY)
                .move(null, UNHEALTHY);
        GroupUpdate half = GroupUpdate.threshold(oneOfFour, PanicThreshold.of(50, null));
        assertThat(half.effect()).isEqualTo(GroupUpdate.Effect.EVENT);
        assertThat(half.after().failOpenReason()).isEqualTo(FailOpenReason.BELOW_MIN_HEALTHY);
        GroupUpdate quarter = GroupUpdate.threshold(oneOfFour, PanicThreshold.of(10, null));
        assertThat(quarter.effect()).isEqualTo(GroupUpdate.Effect.NONE);
        GroupUpdate empty = GroupUpdate.threshold(GroupState.EMPTY, PanicThreshold.of(50, null));
        assertThat(empty.effect()).as("no members: no event to carry it").isEqualTo(GroupUpdate.Effect.NONE);
        assertThat(empty.after().threshold()).isEqualTo(PanicThreshold.of(50, null));
    }
}
