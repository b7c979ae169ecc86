package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.core.health.FailOpenReason;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.healthmesh.core.health.FailOpenReason.BELOW_MIN_HEALTHY;
import static io.healthmesh.core.health.FailOpenReason.NO_HEALTHY_MEMBER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The self-check of group events: one target, thresholds 1/1, alone in group {@code g}, so the group fails open
 * whenever its member is not routable. The aggregator's group events are written here as the group task produces
 * them; one wrong (a flip at another time, another reason, one missing) is a mismatch naming the group.
 */
class GroupCheckTest {

    private static final long GEN = 7;
    /** Probe k's record at (k + 1) s: F at 3, 7..11 and 17. */
    private static final String PATTERN = "SSSFSSSFFFFFSSSSSFSS";
    private static final ReplayWindow WHOLE = new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 20_000);

    /** The group events the aggregator emits: DETECTING at creation, then one per flip of its member. */
    private static List<GroupCheck.GroupEvent> groupEvents() {
        List<GroupCheck.GroupEvent> events = new ArrayList<>();
        events.add(open(0, 1, NO_HEALTHY_MEMBER));
        long[] flips = {1_000, 4_000, 5_000, 8_000, 13_000, 18_000, 19_000};
        for (int i = 0; i < flips.length; i++) {
            events.add(i % 2 == 0 ? routed(flips[i], i + 2) : open(flips[i], i + 2, NO_HEALTHY_MEMBER));
        }
        return events;
    }

    @Test
    void theRunAsConfiguredReproducesTheGroupsFailOpenVerdictsOneForOne() {
        List<GroupCheck.GroupEvent> events = groupEvents();
        // an event that changes only the routable set (here: the same verdict again) is not compared one by one
        events.add(2, routed(1_500, 20));
        SelfCheck check = replay(WHOLE, events, List.of(), true);

        assertThat(check.mismatches()).isEmpty();
        assertThat(check.groups()).isEqualTo(1);
        assertThat(check.groupChanges()).isEqualTo(8);
    }

    @Test
    void twoMembersChangingCloseTogetherMayReachTheGroupTaskInEitherOrder() {
        Set<Long> causes = Set.of(38_839L, 38_841L);
        assertThat(GroupCheck.sameCause(38_839, 38_839, causes)).isTrue();
        assertThat(GroupCheck.sameCause(38_841, 38_839, causes)).as("the other member's change came second").isTrue();
        assertThat(GroupCheck.sameCause(38_840, 38_839, causes)).as("no change of the group at that time").isFalse();
        assertThat(GroupCheck.sameCause(38_841 + GroupCheck.ORDER_TOLERANCE_MS + 1, 38_839,
                Set.of(38_839L, 38_841L + GroupCheck.ORDER_TOLERANCE_MS + 1))).as("too far apart").isFalse();
    }

    @Test
    void aFailOpenFlipAtAnotherTimeIsAMismatch() {
        List<GroupCheck.GroupEvent> events = groupEvents();
        events.set(4, open(9_000, 5, NO_HEALTHY_MEMBER)); // the outage began at probe 7 (8 s), not 8

        assertThat(replay(WHOLE, events, List.of(), true).mismatches()).containsExactly(
                "group g: fail-open change #5: aggregator FAIL_OPEN (NO_HEALTHY_MEMBER) at 1970-01-01T00:00:09Z "
                        + "(event offset 5), replay FAIL_OPEN (NO_HEALTHY_MEMBER) at 1970-01-01T00:00:08Z");
    }

    @Test
    void anotherReasonOrAVerdictTheRuleDoesNotGiveIsAMismatch() {
        List<GroupCheck.GroupEvent> reason = groupEvents();
        reason.set(2, open(4_000, 3, BELOW_MIN_HEALTHY));
        assertThat(replay(WHOLE, reason, List.of(), true).mismatches()).containsExactly(
                "group g: fail-open change #3: aggregator FAIL_OPEN (BELOW_MIN_HEALTHY) at 1970-01-01T00:00:04Z "
                        + "(event offset 3), replay FAIL_OPEN (NO_HEALTHY_MEMBER) at 1970-01-01T00:00:04Z");

        List<GroupCheck.GroupEvent> neverOpen = groupEvents();
        neverOpen.removeIf(e -> e.timestampMs() >= 4_000);
        neverOpen.add(routed(4_000, 3)); // a group that stayed routed while its only member was down
        assertThat(replay(WHOLE, neverOpen, List.of(), true).mismatches()).singleElement().asString()
                .startsWith("group g: replay produced 8 fail-open changes, the aggregator 2; first not emitted by the "
                        + "aggregator: FAIL_OPEN (NO_HEALTHY_MEMBER) at 1970-01-01T00:00:04Z");
    }

    @Test
    void aMissingTailIsAMismatchOnlyWhenTheGroupTaskHadReadEveryMembershipChange() {
        List<GroupCheck.GroupEvent> shortOfTheEnd = groupEvents().subList(0, 6);

        assertThat(replay(WHOLE, shortOfTheEnd, List.of(), false).mismatches()).isEmpty();
        assertThat(replay(WHOLE, shortOfTheEnd, List.of(), true).mismatches()).singleElement().asString()
                .startsWith("group g: replay produced 8 fail-open changes, the aggregator 6");
        // but an event replay does not produce is a mismatch even then
        List<GroupCheck.GroupEvent> extra = new ArrayList<>(shortOfTheEnd);
        extra.add(open(14_000, 30, NO_HEALTHY_MEMBER));
        assertThat(replay(WHOLE, extra, List.of(), false).mismatches()).singleElement().asString()
                .startsWith("group g: fail-open change #7: aggregator FAIL_OPEN (NO_HEALTHY_MEMBER) at "
                        + "1970-01-01T00:00:14Z");
    }

    @Test
    void aPolicyRecordedInsideTheRangeIsAppliedAtItsTimestamp() {
        // at 2.5 s the group asks for 2 routable members: with its one HEALTHY member it fails open below the minimum
        List<GroupCheck.PolicyRecord> policy = List.of(new GroupCheck.PolicyRecord(2_500, "g",
                PanicThreshold.of(null, 2)));
        List<GroupCheck.GroupEvent> events = new ArrayList<>(List.of(open(0, 1, NO_HEALTHY_MEMBER),
                routed(1_000, 2), open(2_500, 3, BELOW_MIN_HEALTHY), open(4_000, 4, NO_HEALTHY_MEMBER),
                open(5_000, 5, BELOW_MIN_HEALTHY), open(8_000, 6, NO_HEALTHY_MEMBER),
                open(13_000, 7, BELOW_MIN_HEALTHY), open(18_000, 8, NO_HEALTHY_MEMBER),
                open(19_000, 9, BELOW_MIN_HEALTHY)));

        assertThat(replay(WHOLE, events, policy, true).mismatches()).isEmpty();
        assertThat(replay(WHOLE, events, List.of(), true).mismatches()).singleElement().asString()
                .startsWith("group g: fail-open change #3: aggregator FAIL_OPEN (BELOW_MIN_HEALTHY) at "
                        + "1970-01-01T00:00:02.500Z (event offset 3), replay FAIL_OPEN (NO_HEALTHY_MEMBER) at "
                        + "1970-01-01T00:00:04Z");
    }

    @Test
    void aRangeStartsFromTheFailOpenDecisionOfTheLastGroupEventBeforeIt() {
        // from 6 s on: the group's last event before (5 s) says routed; the outage's fail-open at 8 s is the first
        ReplayWindow fromSix = new ReplayWindow(Long.MIN_VALUE, 6_000, 20_000);
        List<GroupCheck.GroupEvent> events = groupEvents();

        SelfCheck check = replay(fromSix, events, List.of(), true);
        assertThat(check.mismatches()).isEmpty();
        assertThat(check.groupChanges()).isEqualTo(4);
    }

    @Test
    void onlyGroupsWhoseEveryMemberIsReplayedAreCompared() {
        Map<String, List<String>> groupsOf = Map.of("a", List.of("web"), "b", List.of("web", "db"),
                "c", List.of("db"));

        assertThat(GroupCheck.wholeGroups(groupsOf, Set.of("a", "b", "c"))).containsExactly("db", "web");
        assertThat(GroupCheck.wholeGroups(groupsOf, Set.of("a", "b"))).containsExactly("web");
        assertThat(GroupCheck.wholeGroups(groupsOf, Set.of("a"))).isEmpty();
    }

    private static SelfCheck replay(ReplayWindow window, List<GroupCheck.GroupEvent> groupEvents,
                                    List<GroupCheck.PolicyRecord> policies, boolean complete) {
        ReplayEngine engine = new ReplayEngine(window, Map.of("t", List.of(new DefinitionRecord("t", 0, 0,
                new TargetEssentials("t", "g", true, new Thresholds(1, 1), 1_000, 500, List.of(),
                        QuorumRule.MAJORITY, GEN)))), Map.of("t", targetEvents()), StalenessRule.DEFAULT,
                Alternatives.NONE, 1_000, 3_000);
        engine.checkGroups(new GroupCheck.Input(Set.of("g"), Map.of("g", groupEvents), policies, complete));
        for (int k = 0; k < PATTERN.length(); k++) {
            long ts = 1_000L * (k + 1);
            engine.result("t", ts, new ProbeObservation("r", GEN, ok(k) ? Outcome.SUCCESS : Outcome.TIMEOUT,
                    ts - 100, 5_000, null));
        }
        SelfCheck check = engine.finish().check();
        assertThat(check.mismatches()).as("the target's own events match").noneMatch(m -> m.startsWith("t:"));
        return check;
    }

    /** The target's events as the aggregator emits them: DETECTING, then one per status change. */
    private static List<EmittedEvent> targetEvents() {
        List<EmittedEvent> events = new ArrayList<>();
        events.add(new EmittedEvent("t", 0, 0, new EmittedEvent.State("g", HealthStatus.DETECTING, null, 0, false,
                GEN, null, List.of())));
        HealthStatus last = HealthStatus.DETECTING;
        for (int k = 0; k < PATTERN.length(); k++) {
            HealthStatus s = ok(k) ? HealthStatus.HEALTHY : HealthStatus.UNHEALTHY;
            if (s != last) {
                long ts = 1_000L * (k + 1);
                events.add(new EmittedEvent("t", ts, k + 1, new EmittedEvent.State("g", s, null, ts - 95, false, GEN,
                        new LastResult("r", ok(k) ? Outcome.SUCCESS : Outcome.TIMEOUT, null, 5_000, ts - 100),
                        List.of())));
                last = s;
            }
        }
        return events;
    }

    private static boolean ok(int k) {
        return PATTERN.charAt(k) == 'S';
    }

    private static GroupCheck.GroupEvent routed(long ts, long offset) {
        return new GroupCheck.GroupEvent("g", ts, offset, false, null);
    }

    private static GroupCheck.GroupEvent open(long ts, long offset, FailOpenReason reason) {
        return new GroupCheck.GroupEvent("g", ts, offset, false, reason);
    }
}
