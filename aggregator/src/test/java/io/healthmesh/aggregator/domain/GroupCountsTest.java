package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.TreeMap;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The incremental counters give what FailOpenPolicy gives for the whole member set (BEHAVIOUR.md section 3). */
class GroupCountsTest {

    @Test
    void aMemberJoiningChangingAndLeavingMovesTheCountersByOne() {
        GroupCounts one = GroupCounts.EMPTY.move(null, DETECTING);
        assertThat(one).isEqualTo(new GroupCounts(1, 0, 0, 1, 0));
        GroupCounts healthy = one.move(DETECTING, HEALTHY);
        assertThat(healthy).isEqualTo(new GroupCounts(1, 1, 0, 0, 0));
        GroupCounts two = healthy.move(null, UNHEALTHY);
        assertThat(two).isEqualTo(new GroupCounts(2, 1, 1, 0, 0));
        assertThat(two.move(HEALTHY, null)).isEqualTo(new GroupCounts(1, 0, 1, 0, 0));
        assertThat(two.move(HEALTHY, null).move(UNHEALTHY, null).isEmpty()).isTrue();
    }

    @Test
    void countersThatWouldGoNegativeAreRefused() {
        assertThatThrownBy(() -> GroupCounts.EMPTY.move(HEALTHY, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: non-negative");
    }

    @Test
    void failOpenWhenNoMemberIsHealthyOrDisabled() {
        GroupCounts down = GroupCounts.EMPTY.move(null, UNHEALTHY).move(null, DETECTING);
        assertThat(down.failOpen()).isTrue();
        assertThat(down.routable()).isEqualTo(2);
        GroupCounts withDisabled = down.move(null, DISABLED);
        assertThat(withDisabled.failOpen()).isFalse();
        assertThat(withDisabled.routable()).isEqualTo(1);
        assertThat(GroupCounts.EMPTY.failOpen()).as("an empty group routes to nobody").isFalse();
    }

    @Test
    void routingChangesOnFailOpenTransitionsAndRoutableMembersOnly() {
        GroupCounts healthyAndDown = GroupCounts.EMPTY.move(null, HEALTHY).move(null, UNHEALTHY);
        // the last healthy member going down: fail-open entered
        assertThat(healthyAndDown.routingChangesWhen(HEALTHY, UNHEALTHY)).isTrue();
        // an unhealthy member detecting again: the routable set {healthy one} is the same
        assertThat(healthyAndDown.routingChangesWhen(UNHEALTHY, DETECTING)).isFalse();
        // a second healthy member joins
        assertThat(healthyAndDown.routingChangesWhen(null, HEALTHY)).isTrue();
        // an unhealthy member leaves, the set {healthy one} stays
        assertThat(healthyAndDown.routingChangesWhen(UNHEALTHY, null)).isFalse();
        GroupCounts open = GroupCounts.EMPTY.move(null, UNHEALTHY).move(null, UNHEALTHY);
        // failing open, every member is routable: a status change among them changes nothing, a join or leave does
        assertThat(open.routingChangesWhen(UNHEALTHY, DETECTING)).isFalse();
        assertThat(open.routingChangesWhen(null, DETECTING)).isTrue();
        assertThat(open.routingChangesWhen(UNHEALTHY, null)).isTrue();
        // fail-open left
        assertThat(open.routingChangesWhen(UNHEALTHY, HEALTHY)).isTrue();
    }

    @Test
    void randomChangesAgreeWithTheWholeGroupPolicy() {
        Random random = new Random(15);
        HealthStatus[] statuses = HealthStatus.values();
        for (int round = 0; round < 200; round++) {
            TreeMap<String, HealthStatus> members = new TreeMap<>();
            GroupCounts counts = GroupCounts.EMPTY;
            for (int step = 0; step < 200; step++) {
                String id = "m" + random.nextInt(8);
                HealthStatus before = members.get(id);
                HealthStatus after = random.nextInt(5) == 0 ? null : statuses[random.nextInt(statuses.length)];
                GroupVerdict old = FailOpenPolicy.evaluate(members);
                boolean changes = counts.routingChangesWhen(before, after);
                counts = counts.move(before, after);
                if (after == null) {
                    members.remove(id);
                } else {
                    members.put(id, after);
                }
                GroupVerdict now = FailOpenPolicy.evaluate(members);
                assertThat(new GroupCounts(now.members(), now.healthy(), now.unhealthy(), now.detecting(),
                        now.disabled())).isEqualTo(counts);
                assertThat(counts.failOpen()).isEqualTo(now.failOpen());
                assertThat(counts.routable()).isEqualTo(now.routable().size());
                assertThat(changes).as("%s -> %s in %s", before, after, members)
                        .isEqualTo(now.routesDifferentlyFrom(old));
            }
        }
    }
}
