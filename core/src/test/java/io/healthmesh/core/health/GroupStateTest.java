package io.healthmesh.core.health;

import org.junit.jupiter.api.Test;

import static io.healthmesh.core.health.FailOpenReason.BELOW_MIN_HEALTHY;
import static io.healthmesh.core.health.FailOpenReason.NO_HEALTHY_MEMBER;
import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The panic threshold and its hysteresis (BEHAVIOUR.md, "Panic threshold"): every transition, one member at a time,
 * as the aggregator and replay apply them. The margins are counts, so no clock is involved.
 */
class GroupStateTest {

    private static final PanicThreshold HALF = new PanicThreshold(50, null, 10, 0);

    /** A group of {@code healthy} HEALTHY and {@code unhealthy} UNHEALTHY members, built one member at a time. */
    private static GroupState group(PanicThreshold threshold, int healthy, int unhealthy) {
        GroupState s = GroupState.EMPTY.withThreshold(threshold);
        for (int i = 0; i < healthy; i++) {
            s = s.move(null, HEALTHY);
        }
        for (int i = 0; i < unhealthy; i++) {
            s = s.move(null, UNHEALTHY);
        }
        return s;
    }

    @Test
    void withoutAThresholdAGroupFailsOpenExactlyWhenNoMemberIsRoutable() {
        GroupState s = group(PanicThreshold.NONE, 1, 9);
        assertThat(s.failOpenReason()).isNull();
        GroupState none = s.move(HEALTHY, UNHEALTHY);
        assertThat(none.failOpenReason()).isEqualTo(NO_HEALTHY_MEMBER);
        assertThat(none.routable()).isEqualTo(10);
        // no hysteresis without a threshold: one member back is enough
        assertThat(none.move(UNHEALTHY, HEALTHY).failOpenReason()).isNull();
        assertThat(none.failOpen()).isEqualTo(none.counts().failOpen());
    }

    @Test
    void entersPanicJustBelowThePercentageNotAtIt() {
        GroupState at = group(HALF, 5, 5);
        assertThat(at.failOpenReason()).as("5 of 10 is at 50 %").isNull();
        assertThat(at.routable()).isEqualTo(5);
        GroupState below = at.move(HEALTHY, UNHEALTHY);
        assertThat(below.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(below.routable()).as("every member is served").isEqualTo(10);
        assertThat(below.routingChangesTo(at.move(HEALTHY, UNHEALTHY), HEALTHY, UNHEALTHY)).isFalse();
        assertThat(at.routingChangesTo(below, HEALTHY, UNHEALTHY)).isTrue();
    }

    @Test
    void staysInPanicWithinTheMarginAndLeavesAtThresholdPlusMargin() {
        GroupState panic = group(HALF, 4, 6);
        assertThat(panic.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        GroupState atThreshold = panic.move(UNHEALTHY, HEALTHY);
        assertThat(atThreshold.failOpenReason()).as("5 of 10: at 50 %, below 60 %").isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(panic.routingChangesTo(atThreshold, UNHEALTHY, HEALTHY)).as("nothing to announce").isFalse();
        GroupState left = atThreshold.move(UNHEALTHY, HEALTHY);
        assertThat(left.failOpenReason()).as("6 of 10 = 60 %").isNull();
        assertThat(left.routable()).isEqualTo(6);
        assertThat(atThreshold.routingChangesTo(left, UNHEALTHY, HEALTHY)).isTrue();
        // the same 5 of 10 outside panic is fine: the answer depends on where the group comes from
        assertThat(left.move(HEALTHY, UNHEALTHY).failOpenReason()).isNull();
    }

    @Test
    void noHealthyMemberWinsOverBelowTheThresholdAndTheReasonChangeIsAnEvent() {
        GroupState one = group(HALF, 1, 3);
        assertThat(one.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        GroupState none = one.move(HEALTHY, UNHEALTHY);
        assertThat(none.failOpenReason()).isEqualTo(NO_HEALTHY_MEMBER);
        assertThat(one.routingChangesTo(none, HEALTHY, UNHEALTHY)).as("same set, new reason").isTrue();
        assertThat(none.move(UNHEALTHY, HEALTHY).failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
    }

    @Test
    void aCountBoundEntersBelowTheCountAndLeavesAtCountPlusMargin() {
        PanicThreshold three = new PanicThreshold(null, 3, 0, 1);
        GroupState s = group(three, 3, 7);
        assertThat(s.failOpenReason()).as("3 of 10, 30 %: the count is met").isNull();
        GroupState two = s.move(HEALTHY, UNHEALTHY);
        assertThat(two.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(two.move(UNHEALTHY, HEALTHY).failOpenReason()).as("3: at the count, margin 1").isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(two.move(UNHEALTHY, HEALTHY).move(UNHEALTHY, HEALTHY).failOpenReason()).isNull();
    }

    @Test
    void percentAndCountTogetherEachCanOpenTheGroup() {
        PanicThreshold both = new PanicThreshold(20, 4, 0, 0);
        assertThat(group(both, 3, 7).failOpenReason()).as("30 % but only 3").isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(group(both, 4, 26).failOpenReason()).as("4 but 13 %").isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(group(both, 4, 16).failOpenReason()).as("4 and 20 %").isNull();
    }

    @Test
    void disabledMembersCountAsRoutable() {
        GroupState s = group(HALF, 2, 4).move(null, DISABLED).move(null, DISABLED).move(null, DISABLED);
        // 2 healthy + 3 disabled of 9 = 55 %: the group is in panic from before and needs 60 % to leave
        assertThat(s.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(s.move(null, DISABLED).failOpenReason()).as("6 of 10").isNull();
        GroupState allDisabled = GroupState.EMPTY.withThreshold(new PanicThreshold(100, 5, 0, 0))
                .move(null, DISABLED).move(null, DISABLED).move(null, DISABLED).move(null, DISABLED).move(null, DISABLED);
        assertThat(allDisabled.failOpenReason()).isNull();
        assertThat(allDisabled.routable()).isEqualTo(5);
    }

    @Test
    void detectingMembersCountInTheGroupButNotAsRoutable() {
        GroupState s = group(HALF, 5, 0).move(null, DETECTING).move(null, DETECTING).move(null, DETECTING)
                .move(null, DETECTING).move(null, DETECTING);
        assertThat(s.failOpenReason()).as("5 of 10").isNull();
        assertThat(s.move(null, DETECTING).failOpenReason()).as("5 of 11").isEqualTo(BELOW_MIN_HEALTHY);
    }

    @Test
    void aGroupOfOneFailsOpenOnlyWithoutItsMember() {
        GroupState one = group(new PanicThreshold(50, 1, 10, 1), 1, 0);
        assertThat(one.failOpenReason()).isNull();
        GroupState down = one.move(HEALTHY, UNHEALTHY);
        assertThat(down.failOpenReason()).isEqualTo(NO_HEALTHY_MEMBER);
        // margins never ask for more than the whole group: one member back is 100 % and all of it
        assertThat(down.move(UNHEALTHY, HEALTHY).failOpenReason()).isNull();
    }

    @Test
    void aCountAboveTheGroupSizeKeepsTheGroupOpen() {
        GroupState small = group(new PanicThreshold(null, 5, 0, 0), 3, 0);
        assertThat(small.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(small.routable()).isEqualTo(3);
    }

    @Test
    void aPolicyChangeWhileInPanicIsDecidedWithThePreviousState() {
        GroupState panic = group(HALF, 4, 6);
        assertThat(panic.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
        GroupState lowered = panic.withThreshold(new PanicThreshold(40, null, 10, 0));
        assertThat(lowered.failOpenReason()).as("40 % met but 50 % not: still in panic").isEqualTo(BELOW_MIN_HEALTHY);
        assertThat(panic.routingChangesTo(lowered, null, null)).isFalse();
        GroupState lower = lowered.withThreshold(new PanicThreshold(30, null, 10, 0));
        assertThat(lower.failOpenReason()).as("40 % >= 30 + 10").isNull();
        assertThat(lowered.routingChangesTo(lower, null, null)).isTrue();
        GroupState raised = lower.withThreshold(new PanicThreshold(45, null, 10, 0));
        assertThat(raised.failOpenReason()).isEqualTo(BELOW_MIN_HEALTHY);
    }

    @Test
    void aDeletedPolicyIsTheRuleWithoutThreshold() {
        GroupState panic = group(HALF, 4, 6);
        GroupState deleted = panic.withThreshold(PanicThreshold.NONE);
        assertThat(deleted.failOpenReason()).isNull();
        assertThat(deleted.threshold().isNone()).isTrue();
        assertThat(panic.routingChangesTo(deleted, null, null)).isTrue();
        assertThat(group(HALF, 0, 3).withThreshold(PanicThreshold.NONE).failOpenReason()).isEqualTo(NO_HEALTHY_MEMBER);
    }

    @Test
    void aThresholdOnAnEmptyGroupWaitsForItsMembers() {
        GroupState policyOnly = GroupState.EMPTY.withThreshold(HALF);
        assertThat(policyOnly.failOpen()).isFalse();
        assertThat(policyOnly.move(null, UNHEALTHY).failOpenReason()).isEqualTo(NO_HEALTHY_MEMBER);
        assertThat(policyOnly.move(null, HEALTHY).failOpenReason()).isNull();
    }

    @Test
    void boundsAreCheckedWithClearMessages() {
        assertThatThrownBy(() -> new PanicThreshold(0, null, 0, 0)).hasMessage("minHealthyPercent: 0 (expected: 1..100)");
        assertThatThrownBy(() -> new PanicThreshold(101, null, 0, 0)).hasMessage("minHealthyPercent: 101 (expected: 1..100)");
        assertThatThrownBy(() -> new PanicThreshold(null, 0, 0, 0)).hasMessage("minHealthyCount: 0 (expected: 1..1000000)");
        assertThatThrownBy(() -> new PanicThreshold(10, null, 51, 0)).hasMessage("leaveMarginPercent: 51 (expected: 0..50)");
        assertThatThrownBy(() -> new PanicThreshold(10, null, 0, -1)).hasMessage("leaveMarginCount: -1 (expected: 0..10000)");
        assertThatThrownBy(() -> new GroupState(GroupCounts.EMPTY, PanicThreshold.NONE, NO_HEALTHY_MEMBER))
                .hasMessageContaining("expected: none without members");
        assertThat(PanicThreshold.of(null, null)).isSameAs(PanicThreshold.NONE);
        assertThat(PanicThreshold.of(30, null)).isEqualTo(new PanicThreshold(30, null, 5, 1));
    }
}
