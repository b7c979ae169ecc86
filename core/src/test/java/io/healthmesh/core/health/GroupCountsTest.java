package io.healthmesh.core.health;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The group routing rule (BEHAVIOUR.md section 3): counters, fail-open, the served members, what makes an event. */
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
    }

    @Test
    void aGroupWithADisabledMemberNeverFailsOpen() {
        GroupCounts counts = counts(Map.of("a", UNHEALTHY, "b", UNHEALTHY, "off", DISABLED));
        assertThat(counts.failOpen()).isFalse();
        assertThat(counts.routable()).isEqualTo(1);
    }

    @Test
    void aGroupWithOneHealthyMemberNeverFailsOpen() {
        GroupCounts counts = counts(Map.of("a", UNHEALTHY, "b", HEALTHY, "c", UNHEALTHY));
        assertThat(counts.failOpen()).isFalse();
        assertThat(counts.routable()).isEqualTo(1);
    }

    @Test
    void anEmptyGroupRoutesNothingAndDoesNotFailOpen() {
        assertThat(GroupCounts.EMPTY.failOpen()).isFalse();
        assertThat(GroupCounts.EMPTY.routable()).isZero();
        assertThat(GroupCounts.EMPTY.isEmpty()).isTrue();
    }

    @Test
    void servedAreTheRoutableMembersOrEveryMemberWhenFailingOpen() {
        for (HealthStatus status : HealthStatus.values()) {
            assertThat(GroupCounts.served(status, false)).as("%s, not failing open", status)
                    .isEqualTo(status == HEALTHY || status == DISABLED);
            assertThat(GroupCounts.served(status, true)).as("%s, failing open", status).isTrue();
        }
        assertThat(GroupCounts.served(null, false)).as("not a member").isFalse();
        assertThat(GroupCounts.served(null, true)).as("not a member").isFalse();
        assertThat(GroupCounts.servedCount(true, 7, 0)).isEqualTo(7);
        assertThat(GroupCounts.servedCount(false, 7, 3)).isEqualTo(3);
    }

    @Test
    void everyCombinationOfThreeMembersFollowsTheRule() {
        HealthStatus[] all = HealthStatus.values();
        for (HealthStatus a : all) {
            for (HealthStatus b : all) {
                for (HealthStatus c : all) {
                    GroupCounts counts = counts(Map.of("a", a, "b", b, "c", c));
                    boolean anyRoutable = a.isRoutable() || b.isRoutable() || c.isRoutable();
                    assertThat(counts.failOpen()).isEqualTo(!anyRoutable);
                    assertThat(counts.routable()).isEqualTo(anyRoutable
                            ? (a.isRoutable() ? 1 : 0) + (b.isRoutable() ? 1 : 0) + (c.isRoutable() ? 1 : 0) : 3);
                    assertThat(counts.members()).isEqualTo(3);
                }
            }
        }
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

    /**
     * Random joins, changes and leaves: the incremental counters are those of the whole member set, and a routing
     * change is announced exactly when the set of served members or the flag differs from before.
     */
    @Test
    void randomChangesKeepTheCountersAndAnnounceEveryRoutingChange() {
        Random random = new Random(15);
        HealthStatus[] statuses = HealthStatus.values();
        for (int round = 0; round < 200; round++) {
            TreeMap<String, HealthStatus> members = new TreeMap<>();
            GroupCounts counts = GroupCounts.EMPTY;
            for (int step = 0; step < 200; step++) {
                String id = "m" + random.nextInt(8);
                HealthStatus before = members.get(id);
                HealthStatus after = random.nextInt(5) == 0 ? null : statuses[random.nextInt(statuses.length)];
                TreeSet<String> servedBefore = served(members, counts.failOpen());
                boolean flagBefore = counts.failOpen();
                boolean changes = counts.routingChangesWhen(before, after);
                counts = counts.move(before, after);
                if (after == null) {
                    members.remove(id);
                } else {
                    members.put(id, after);
                }
                assertThat(counts(members)).isEqualTo(counts);
                boolean anyRoutable = members.values().stream().anyMatch(HealthStatus::isRoutable);
                assertThat(counts.failOpen()).isEqualTo(!members.isEmpty() && !anyRoutable);
                TreeSet<String> servedNow = served(members, counts.failOpen());
                assertThat(counts.routable()).isEqualTo(servedNow.size());
                assertThat(changes).as("%s -> %s in %s", before, after, members)
                        .isEqualTo(flagBefore != counts.failOpen() || !servedBefore.equals(servedNow));
            }
        }
    }

    /** The counters of a whole member set, counted from scratch. */
    private static GroupCounts counts(Map<String, HealthStatus> members) {
        GroupCounts counts = GroupCounts.EMPTY;
        for (HealthStatus status : members.values()) {
            counts = counts.move(null, status);
        }
        return counts;
    }

    private static TreeSet<String> served(Map<String, HealthStatus> members, boolean failOpen) {
        TreeSet<String> served = new TreeSet<>();
        members.forEach((id, status) -> {
            if (GroupCounts.served(status, failOpen)) {
                served.add(id);
            }
        });
        return served;
    }
}
