package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.QuorumPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetHealthStateTest {

    private static final long GEN = 7L;
    private static final int INTERVAL = 5_000;
    private static final int TIMEOUT = 2_000;
    /** 3 x 5 s + 2 s. */
    private static final long WINDOW = 17_000;

    private static TargetEssentials spec(QuorumRule quorum, List<String> regions) {
        return new TargetEssentials("t1", "web", true, new Thresholds(3, 3), INTERVAL, TIMEOUT, regions, quorum, GEN);
    }

    private static TargetEssentials spec() {
        return spec(QuorumRule.MAJORITY, List.of());
    }

    private static ProbeObservation ok(String region, long startedAt) {
        return new ProbeObservation(region, GEN, Outcome.SUCCESS, startedAt, 1_000_000, null);
    }

    private static ProbeObservation fail(String region, long startedAt) {
        return new ProbeObservation(region, GEN, Outcome.TIMEOUT, startedAt, 2_000_000, "no answer");
    }

    /** Feeds results and returns the last update; each result is applied at wall-clock time = its completion. */
    private static TargetUpdate feed(TargetHealthState state, ProbeObservation... results) {
        TargetUpdate update = null;
        for (ProbeObservation r : results) {
            update = state.apply(r, r.completedAtMs());
            state = update.after();
        }
        return update;
    }

    private static TargetHealthState fresh(TargetEssentials spec) {
        return TargetHealthState.create(spec, 0, 0).after();
    }

    @Test
    void aNewTargetIsDetectingAndEmits() {
        TargetUpdate created = TargetHealthState.create(spec(), 100, 200);
        assertThat(created.created()).isTrue();
        assertThat(created.emits()).isTrue();
        assertThat(created.membershipChanged()).isTrue();
        TargetHealthState s = created.after();
        assertThat(s.status()).isEqualTo(DETECTING);
        assertThat(s.previousStatus()).isNull();
        assertThat(s.sinceMs()).isEqualTo(100);
        assertThat(s.watchSinceMs()).isEqualTo(200);
        assertThat(s.regions()).isEmpty();
        assertThat(TargetHealthState.create(disabled(spec()), 0, 0).after().status()).isEqualTo(DISABLED);
    }

    private static TargetEssentials disabled(TargetEssentials s) {
        return new TargetEssentials(s.id(), s.group(), false, s.thresholds(), s.intervalMs(), s.timeoutMs(),
                s.regions(), s.quorum(), s.generation());
    }

    @Test
    void resultsDriveTheSingleRegionMachineAndDateTheChangeByCompletion() {
        TargetHealthState s = fresh(spec());
        TargetUpdate first = s.apply(ok("eu", 0), 1_000);
        assertThat(first.emits()).as("counters alone never emit, and a region appearing DETECTING is no change")
                .isFalse();
        assertThat(first.stateChanged()).isTrue();
        TargetUpdate third = feed(first.after(), ok("eu", 6_000), ok("eu", 12_000));
        assertThat(third.statusChanged()).isTrue();
        assertThat(third.emits()).isTrue();
        TargetHealthState healthy = third.after();
        assertThat(healthy.status()).isEqualTo(HEALTHY);
        assertThat(healthy.previousStatus()).isEqualTo(DETECTING);
        assertThat(healthy.sinceMs()).isEqualTo(13_000);
        assertThat(healthy.lastResult()).isEqualTo(new LastResult("eu", Outcome.SUCCESS, null, 1_000_000, 12_000));
        RegionState eu = healthy.regions().get("eu");
        assertThat(eu.machine()).isEqualTo(new HealthStateMachine(GEN, HEALTHY, 3, 0));
        assertThat(eu.lastResultAtMs()).isEqualTo(12_000);
        assertThat(eu.lastHeardAtMs()).isEqualTo(13_000);
    }

    @Test
    void resultsOfAnotherGenerationAreIgnored() {
        TargetHealthState s = fresh(spec());
        TargetUpdate u = s.apply(new ProbeObservation("eu", GEN + 1, Outcome.SUCCESS, 1, 1, null), 5);
        assertThat(u.ignored()).isEqualTo(IgnoredBecause.OTHER_GENERATION);
        assertThat(u.after()).isSameAs(s);
        assertThat(u.emits()).isFalse();
    }

    @Test
    void resultsOlderThanTheLastAppliedOfTheirRegionAreIgnoredButOtherRegionsAreNot() {
        TargetHealthState s = feed(fresh(spec()), ok("eu", 10_000)).after();
        assertThat(s.apply(fail("eu", 9_000), 20_000).ignored()).isEqualTo(IgnoredBecause.OUT_OF_ORDER);
        assertThat(s.apply(fail("eu", 10_000), 20_000).ignored()).isEqualTo(IgnoredBecause.OUT_OF_ORDER);
        TargetUpdate other = s.apply(fail("us", 9_000), 20_000);
        assertThat(other.ignored()).isNull();
        assertThat(other.after().regions()).containsKeys("eu", "us");
    }

    @Test
    void resultsWhileDisabledOrFromUnlistedRegionsAreIgnored() {
        TargetHealthState off = fresh(disabled(spec()));
        assertThat(off.apply(ok("eu", 1), 1).ignored()).isEqualTo(IgnoredBecause.DISABLED);
        TargetHealthState listed = fresh(spec(QuorumRule.MAJORITY, List.of("eu", "us")));
        assertThat(listed.apply(ok("ap", 1), 1).ignored()).isEqualTo(IgnoredBecause.UNLISTED_REGION);
        assertThat(listed.apply(ok("us", 1), 1).ignored()).isNull();
    }

    @Test
    void thresholdOnlyChangeKeepsCountersAndReevaluates() {
        TargetHealthState s = feed(fresh(spec()), ok("eu", 0), ok("eu", 6_000)).after();
        TargetEssentials lower = new TargetEssentials("t1", "web", true, new Thresholds(2, 3), INTERVAL, TIMEOUT,
                List.of(), QuorumRule.MAJORITY, GEN);
        TargetUpdate u = s.redefine(lower, 50_000, 50_001);
        assertThat(u.after().status()).isEqualTo(HEALTHY);
        assertThat(u.after().sinceMs()).isEqualTo(50_000);
        assertThat(u.after().regions().get("eu").machine().consecutiveSuccesses()).isEqualTo(2);
        assertThat(u.emits()).isTrue();
        // raising it again keeps HEALTHY and the counters
        TargetEssentials higher = new TargetEssentials("t1", "web", true, new Thresholds(5, 5), INTERVAL, TIMEOUT,
                List.of(), QuorumRule.MAJORITY, GEN);
        TargetUpdate raised = u.after().redefine(higher, 60_000, 60_000);
        assertThat(raised.after().status()).isEqualTo(HEALTHY);
        assertThat(raised.emits()).isFalse();
        assertThat(raised.after().regions().get("eu").machine().consecutiveSuccesses()).isEqualTo(2);
    }

    @Test
    void generationChangeResetsToDetectingAndForgetsRegions() {
        TargetHealthState s = feed(fresh(spec()), ok("eu", 0), ok("eu", 6_000), ok("eu", 12_000)).after();
        TargetEssentials changed = new TargetEssentials("t1", "web", true, new Thresholds(3, 3), INTERVAL, TIMEOUT,
                List.of(), QuorumRule.MAJORITY, GEN + 1);
        TargetUpdate u = s.redefine(changed, 30_000, 30_500);
        assertThat(u.after().status()).isEqualTo(DETECTING);
        assertThat(u.after().previousStatus()).isEqualTo(HEALTHY);
        assertThat(u.after().generation()).isEqualTo(GEN + 1);
        assertThat(u.after().regions()).isEmpty();
        assertThat(u.after().watchSinceMs()).isEqualTo(30_500);
        assertThat(u.after().lastResult()).isNull();
        assertThat(u.emits()).isTrue();
        // results of the old generation are ignored from now on
        assertThat(u.after().apply(ok("eu", 31_000), 31_000).ignored()).isEqualTo(IgnoredBecause.OTHER_GENERATION);
        // a generation change while still DETECTING still emits (the generation is in the event)
        assertThat(fresh(spec()).redefine(changed, 1, 1).emits()).isTrue();
    }

    @Test
    void disablingAndEnablingAgain() {
        TargetHealthState s = feed(fresh(spec()), fail("eu", 0), fail("eu", 6_000), fail("eu", 12_000)).after();
        assertThat(s.status()).isEqualTo(UNHEALTHY);
        TargetUpdate off = s.redefine(disabled(spec()), 20_000, 20_000);
        assertThat(off.after().status()).isEqualTo(DISABLED);
        assertThat(off.after().previousStatus()).isEqualTo(UNHEALTHY);
        assertThat(off.after().regions()).isEmpty();
        assertThat(off.membershipChanged()).isTrue();
        TargetUpdate on = off.after().redefine(spec(), 30_000, 30_000);
        assertThat(on.after().status()).isEqualTo(DETECTING);
        assertThat(on.after().watchSinceMs()).isEqualTo(30_000);
        assertThat(on.after().previousStatus()).isEqualTo(DISABLED);
        assertThat(off.after().checkStaleness(1_000_000, 0, StalenessRule.DEFAULT).emits()).isFalse();
    }

    @Test
    void changingGroupEmitsAndMovesMembershipWithoutChangingStatus() {
        TargetHealthState s = fresh(spec());
        TargetEssentials moved = new TargetEssentials("t1", "api", true, new Thresholds(3, 3), INTERVAL, TIMEOUT,
                List.of(), QuorumRule.MAJORITY, GEN);
        TargetUpdate u = s.redefine(moved, 1, 1);
        assertThat(u.groupChanged()).isTrue();
        assertThat(u.statusChanged()).isFalse();
        assertThat(u.membershipChanged()).isTrue();
        assertThat(u.emits()).isTrue();
        assertThatThrownBy(() -> s.redefine(new TargetEssentials("other", "web", true, new Thresholds(3, 3), INTERVAL,
                TIMEOUT, List.of(), QuorumRule.MAJORITY, GEN), 1, 1)).hasMessage("id: other (expected: t1)");
    }

    @Test
    void staleIsSetOnceAfterTheWindowAndClearedByTheNextResultWithStatusKept() {
        TargetHealthState s = feed(fresh(spec()), ok("eu", 0), ok("eu", 6_000), ok("eu", 12_000)).after();
        long lastHeard = 13_000;
        TargetUpdate notYet = s.checkStaleness(lastHeard + WINDOW, 0, StalenessRule.DEFAULT);
        assertThat(notYet.emits()).isFalse();
        TargetUpdate gone = s.checkStaleness(lastHeard + WINDOW + 1, 0, StalenessRule.DEFAULT);
        assertThat(gone.emits()).isTrue();
        assertThat(gone.after().stale()).isTrue();
        assertThat(gone.after().status()).isEqualTo(HEALTHY);
        assertThat(gone.after().regions().get("eu").stale()).isTrue();
        // checking again changes nothing: the event is emitted once
        TargetUpdate again = gone.after().checkStaleness(lastHeard + 10 * WINDOW, 0, StalenessRule.DEFAULT);
        assertThat(again.emits()).isFalse();
        TargetUpdate back = gone.after().apply(fail("eu", 100_000), 102_000);
        assertThat(back.emits()).isTrue();
        assertThat(back.after().stale()).isFalse();
        assertThat(back.after().status()).isEqualTo(HEALTHY);
    }

    @Test
    void onlyAResultClearsStalenessNotAClockThatStepsBack() {
        TargetHealthState s = feed(fresh(spec()), ok("eu", 0)).after();
        TargetHealthState stale = s.checkStaleness(1_000 + WINDOW + 1, 0, StalenessRule.DEFAULT).after();
        assertThat(stale.stale()).isTrue();
        TargetUpdate stepBack = stale.checkStaleness(2_000, 0, StalenessRule.DEFAULT);
        assertThat(stepBack.emits()).isFalse();
        assertThat(stepBack.after().stale()).isTrue();
        assertThat(stepBack.after().regions().get("eu").stale()).isTrue();
    }

    @Test
    void aTargetThatNeverReportedGoesStaleOneWindowAfterItWasDefinedOrTheInstanceStarted() {
        TargetHealthState s = TargetHealthState.create(spec(), 0, 1_000).after();
        assertThat(s.checkStaleness(1_000 + WINDOW, 0, StalenessRule.DEFAULT).after().stale()).isFalse();
        assertThat(s.checkStaleness(1_001 + WINDOW, 0, StalenessRule.DEFAULT).after().stale()).isTrue();
        assertThat(s.checkStaleness(1_001 + WINDOW, 5_000, StalenessRule.DEFAULT).after().stale()).isFalse();
    }

    @Test
    void oneOfThreeRegionsLosesItsPathMajorityStaysHealthyAllTurnsUnhealthy() {
        for (QuorumPolicy policy : List.of(QuorumPolicy.MAJORITY, QuorumPolicy.ALL)) {
            TargetHealthState s = fresh(spec(new QuorumRule(policy, 1), List.of()));
            long t = 0;
            for (int i = 0; i < 3; i++, t += 6_000) {
                s = feed(s, ok("eu", t), ok("us", t), ok("ap", t)).after();
            }
            assertThat(s.status()).isEqualTo(HEALTHY);
            for (int i = 0; i < 3; i++, t += 6_000) {
                s = feed(s, ok("eu", t), ok("us", t), fail("ap", t)).after();
            }
            assertThat(s.regions().get("ap").machine().status()).isEqualTo(UNHEALTHY);
            assertThat(s.status()).as(policy.name())
                    .isEqualTo(policy == QuorumPolicy.MAJORITY ? HEALTHY : UNHEALTHY);
        }
    }

    @Test
    void twoRegionsFlappingOutOfPhaseDoNotFlipTheOverallStatus() {
        // each result is checked, in both orders within a round: one region's failure and the other's recovery
        // are counted at the same instant, the hardest case for a quorum
        for (boolean euFirst : List.of(true, false)) {
            TargetHealthState s = fresh(spec());
            long t = 0;
            for (int i = 0; i < 3; i++, t += 6_000) {
                s = feed(s, ok("eu", t), ok("us", t), ok("ap", t)).after();
            }
            List<HealthStatus> overall = new ArrayList<>();
            int flips = 0;
            for (int phase = 0; phase < 8; phase++) {
                for (int i = 0; i < 6; i++, t += 6_000) {
                    boolean euUp = phase % 2 == 1;
                    ProbeObservation eu = euUp ? ok("eu", t) : fail("eu", t);
                    ProbeObservation us = euUp ? fail("us", t) : ok("us", t);
                    HealthStatus euBefore = s.regions().get("eu").machine().status();
                    for (ProbeObservation r : euFirst ? List.of(eu, us, ok("ap", t)) : List.of(us, eu, ok("ap", t))) {
                        s = s.apply(r, r.completedAtMs()).after();
                        overall.add(s.status());
                    }
                    flips += s.regions().get("eu").machine().status() != euBefore ? 1 : 0;
                }
            }
            assertThat(flips).as("eu really flapped").isGreaterThanOrEqualTo(7);
            assertThat(overall).as("eu first: " + euFirst).containsOnly(HEALTHY);
        }
    }

    @Test
    void aRegionWhoseProbersAllStopNeverTurnsTheTargetUnhealthy() {
        TargetHealthState s = fresh(spec());
        long t = 0;
        for (int i = 0; i < 3; i++, t += 6_000) {
            s = feed(s, ok("eu", t), ok("us", t), fail("ap", t)).after();
        }
        assertThat(s.status()).isEqualTo(HEALTHY);
        // eu stops; us and ap keep reporting (us healthy, ap unhealthy): MAJORITY of the two voters is not met, but
        // eu, silent, could be HEALTHY, so the target is not declared UNHEALTHY
        long euLastHeard = s.regions().get("eu").lastHeardAtMs();
        for (int i = 0; i < 10; i++, t += 6_000) {
            s = feed(s, ok("us", t), fail("ap", t)).after();
            s = s.checkStaleness(t + 3_000, 0, StalenessRule.DEFAULT).after();
            assertThat(s.status()).isEqualTo(HEALTHY);
        }
        assertThat(s.regions().get("eu").stale()).isTrue();
        assertThat(t - euLastHeard).isGreaterThan(WINDOW);
        assertThat(s.stale()).isFalse();
    }

    @Test
    void whenNoRegionVotesTheStatusStaysAndTheTargetIsStale() {
        TargetHealthState s = fresh(spec());
        long t = 0;
        for (int i = 0; i < 3; i++, t += 6_000) {
            s = feed(s, fail("eu", t), fail("us", t)).after();
        }
        assertThat(s.status()).isEqualTo(UNHEALTHY);
        TargetUpdate u = s.checkStaleness(t + WINDOW + 10_000, 0, StalenessRule.DEFAULT);
        assertThat(u.after().stale()).isTrue();
        assertThat(u.after().status()).isEqualTo(UNHEALTHY);
        assertThat(u.after().voters()).isEmpty();
    }

    @Test
    void aStaleRegionDoesNotVoteSoTheOthersDecide() {
        // ALL over eu and us; us failing; then us stops: eu alone (HEALTHY) meets ALL of the voters
        TargetHealthState s = fresh(spec(new QuorumRule(QuorumPolicy.ALL, 1), List.of()));
        long t = 0;
        for (int i = 0; i < 3; i++, t += 6_000) {
            s = feed(s, ok("eu", t), fail("us", t)).after();
        }
        assertThat(s.status()).isEqualTo(UNHEALTHY);
        for (int i = 0; i < 4; i++, t += 6_000) {
            s = feed(s, ok("eu", t)).after();
        }
        TargetUpdate u = s.checkStaleness(t, 0, StalenessRule.DEFAULT);
        assertThat(u.after().regions().get("us").stale()).isTrue();
        assertThat(u.after().status()).isEqualTo(HEALTHY);
        assertThat(u.after().sinceMs()).isEqualTo(t);
        assertThat(u.emits()).isTrue();
    }

    @Test
    void unlistingARegionForgetsIt() {
        TargetHealthState s = fresh(spec());
        long t = 0;
        for (int i = 0; i < 3; i++, t += 6_000) {
            s = feed(s, ok("eu", t), fail("us", t)).after();
        }
        assertThat(s.status()).isEqualTo(UNHEALTHY);
        TargetUpdate u = s.redefine(spec(QuorumRule.MAJORITY, List.of("eu")), t, t);
        assertThat(u.after().regions()).containsOnlyKeys("eu");
        assertThat(u.after().status()).isEqualTo(HEALTHY);
    }

    @Test
    void withOneRegionTheTargetFollowsTheMachineExactlyOnRandomSequences() {
        Random random = new Random(17);
        for (int round = 0; round < 300; round++) {
            Thresholds th = new Thresholds(1 + random.nextInt(10), 1 + random.nextInt(10));
            TargetEssentials e = new TargetEssentials("t1", "web", true, th, INTERVAL, TIMEOUT, List.of(),
                    new QuorumRule(QuorumPolicy.values()[random.nextInt(4)], 1 + random.nextInt(3)), GEN);
            TargetHealthState s = fresh(e);
            HealthStateMachine m = HealthStateMachine.detecting(GEN);
            double bias = random.nextDouble();
            for (int i = 0; i < 80; i++) {
                boolean success = random.nextDouble() < bias;
                long start = i * 1_000L;
                TargetUpdate u = s.apply(success ? ok("eu", start) : fail("eu", start), start + 500);
                Transition step = m.observe(success, th);
                m = step.state();
                s = u.after();
                assertThat(s.status()).isEqualTo(m.status());
                assertThat(u.emits()).isEqualTo(step.changed());
                assertThat(s.regions().get("eu").machine()).isEqualTo(m);
            }
        }
    }

    @Test
    void randomRegionOutagesNeverTurnATargetUnhealthyThroughStaleness() {
        Random random = new Random(99);
        for (int round = 0; round < 200; round++) {
            QuorumPolicy policy = QuorumPolicy.values()[random.nextInt(4)];
            TargetHealthState s = fresh(spec(new QuorumRule(policy, 1 + random.nextInt(3)), List.of()));
            List<String> regions = List.of("eu", "us", "ap", "sa");
            long t = 0;
            for (int step = 0; step < 60; step++, t += 2_000) {
                for (String region : regions) {
                    // each region reports most of the time, sometimes not at all for a while
                    if (random.nextInt(4) != 0 || step < 5) {
                        s = s.apply(random.nextBoolean() ? ok(region, t) : fail(region, t), t + 1_000).after();
                    }
                }
                TargetUpdate checked = s.checkStaleness(t + 1_500 + random.nextInt(20_000), 0, StalenessRule.DEFAULT);
                if (s.status() != UNHEALTHY) {
                    assertThat(checked.after().status()).as(policy + " at step " + step).isNotEqualTo(UNHEALTHY);
                }
                s = checked.after();
            }
        }
    }
}
