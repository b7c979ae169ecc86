package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.target.QuorumPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuorumRuleTest {

    private static final QuorumRule ANY = new QuorumRule(QuorumPolicy.ANY, 1);
    private static final QuorumRule MAJORITY = QuorumRule.MAJORITY;
    private static final QuorumRule ALL = new QuorumRule(QuorumPolicy.ALL, 1);
    private static final QuorumRule AT_LEAST_2 = new QuorumRule(QuorumPolicy.AT_LEAST, 2);
    private static final List<HealthStatus> VOTES = List.of(DETECTING, HEALTHY, UNHEALTHY);
    private static final List<HealthStatus> PREVIOUS = List.of(DETECTING, HEALTHY, UNHEALTHY, DISABLED);

    @Test
    void requiredHealthyRegionsPerPolicy() {
        assertThat(List.of(ANY.required(1), ANY.required(2), ANY.required(5))).containsExactly(1, 1, 1);
        assertThat(List.of(MAJORITY.required(1), MAJORITY.required(2), MAJORITY.required(3), MAJORITY.required(4),
                MAJORITY.required(5))).containsExactly(1, 2, 2, 3, 3);
        assertThat(List.of(ALL.required(1), ALL.required(3))).containsExactly(1, 3);
        assertThat(List.of(AT_LEAST_2.required(1), AT_LEAST_2.required(2), AT_LEAST_2.required(5)))
                .containsExactly(1, 2, 2);
        assertThat(MAJORITY.required(0)).isZero();
        assertThat(MAJORITY).hasToString("MAJORITY");
        assertThat(AT_LEAST_2).hasToString("AT_LEAST(2)");
    }

    @ParameterizedTest
    @EnumSource(QuorumPolicy.class)
    void oneRegionIsExactlyItsOwnStatus(QuorumPolicy policy) {
        QuorumRule rule = new QuorumRule(policy, 2);
        for (HealthStatus previous : PREVIOUS) {
            assertThat(rule.combine(List.of(HEALTHY), 0, previous)).isEqualTo(HEALTHY);
            assertThat(rule.combine(List.of(UNHEALTHY), 0, previous)).isEqualTo(UNHEALTHY);
        }
        // a single machine is DETECTING only before its first decision, when the target is DETECTING too
        assertThat(rule.combine(List.of(DETECTING), 0, DETECTING)).isEqualTo(DETECTING);
    }

    @ParameterizedTest
    @EnumSource(QuorumPolicy.class)
    void noVoterKeepsThePreviousStatus(QuorumPolicy policy) {
        QuorumRule rule = new QuorumRule(policy, 1);
        for (HealthStatus previous : PREVIOUS) {
            assertThat(rule.combine(List.of(), 0, previous)).isEqualTo(previous);
            assertThat(rule.combine(List.of(), 3, previous)).isEqualTo(previous);
        }
    }

    @Test
    void oneOfThreeRegionsLosesItsPath() {
        List<HealthStatus> votes = List.of(HEALTHY, HEALTHY, UNHEALTHY);
        assertThat(MAJORITY.combine(votes, 0, HEALTHY)).isEqualTo(HEALTHY);
        assertThat(ALL.combine(votes, 0, HEALTHY)).isEqualTo(UNHEALTHY);
        assertThat(ANY.combine(votes, 0, HEALTHY)).isEqualTo(HEALTHY);
        assertThat(AT_LEAST_2.combine(votes, 0, HEALTHY)).isEqualTo(HEALTHY);
        assertThat(new QuorumRule(QuorumPolicy.AT_LEAST, 3).combine(votes, 0, HEALTHY)).isEqualTo(UNHEALTHY);
    }

    @Test
    void twoOfThreeRegionsLoseTheirPath() {
        List<HealthStatus> votes = List.of(HEALTHY, UNHEALTHY, UNHEALTHY);
        assertThat(MAJORITY.combine(votes, 0, HEALTHY)).isEqualTo(UNHEALTHY);
        assertThat(ANY.combine(votes, 0, UNHEALTHY)).isEqualTo(HEALTHY);
        assertThat(AT_LEAST_2.combine(votes, 0, HEALTHY)).isEqualTo(UNHEALTHY);
    }

    @Test
    void undecidedSplitsKeepADecidedStatusAndOtherwiseDetect() {
        // one DETECTING region could still tip MAJORITY of three either way
        List<HealthStatus> split = List.of(HEALTHY, UNHEALTHY, DETECTING);
        assertThat(MAJORITY.combine(split, 0, HEALTHY)).isEqualTo(HEALTHY);
        assertThat(MAJORITY.combine(split, 0, UNHEALTHY)).isEqualTo(UNHEALTHY);
        assertThat(MAJORITY.combine(split, 0, DETECTING)).isEqualTo(DETECTING);
        assertThat(MAJORITY.combine(split, 0, DISABLED)).isEqualTo(DETECTING);
        // a new region that appears DETECTING never moves a decided status
        assertThat(ALL.combine(List.of(HEALTHY, DETECTING), 0, HEALTHY)).isEqualTo(HEALTHY);
        assertThat(ANY.combine(List.of(UNHEALTHY, DETECTING), 0, UNHEALTHY)).isEqualTo(UNHEALTHY);
    }

    @Test
    void aSilentRegionCountsAsCouldBeHealthyAndNeverCausesUnhealthy() {
        // MAJORITY of three, one healthy region went silent: {H, U} voting, one silent
        assertThat(MAJORITY.combine(List.of(HEALTHY, UNHEALTHY), 1, HEALTHY)).isEqualTo(HEALTHY);
        // ... whereas the same two voters with nobody silent cannot meet MAJORITY of two
        assertThat(MAJORITY.combine(List.of(HEALTHY, UNHEALTHY), 0, HEALTHY)).isEqualTo(UNHEALTHY);
        // ALL: the silent region no longer blocks the remaining HEALTHY voters
        assertThat(ALL.combine(List.of(HEALTHY, HEALTHY), 1, UNHEALTHY)).isEqualTo(HEALTHY);
        // ALL: an UNHEALTHY voter still makes it unreachable whatever the silent ones say
        assertThat(ALL.combine(List.of(HEALTHY, UNHEALTHY), 1, HEALTHY)).isEqualTo(UNHEALTHY);
    }

    @Test
    void refusesDisabledVotesAndBadArguments() {
        assertThatThrownBy(() -> MAJORITY.combine(List.of(DISABLED), 0, HEALTHY))
                .hasMessage("vote: DISABLED (expected: DETECTING, HEALTHY or UNHEALTHY)");
        assertThatThrownBy(() -> MAJORITY.combine(List.of(HEALTHY), -1, HEALTHY))
                .hasMessage("silent: -1 (expected: 0 or more)");
        assertThatThrownBy(() -> new QuorumRule(QuorumPolicy.AT_LEAST, 0))
                .hasMessage("quorumAtLeast: 0 (expected: 1 or more)");
        assertThatThrownBy(() -> MAJORITY.required(-1)).hasMessage("regions: -1 (expected: 0 or more)");
    }

    /** Region A and B alternate, steps of one region changing at a time, from the given pairs of statuses. */
    private static HealthStatus[] overallAlong(QuorumRule rule, HealthStatus steady, HealthStatus[][] steps,
                                               HealthStatus start) {
        HealthStatus overall = start;
        HealthStatus[] seen = new HealthStatus[steps.length];
        for (int i = 0; i < steps.length; i++) {
            List<HealthStatus> votes = new ArrayList<>(List.of(steps[i]));
            if (steady != null) {
                votes.add(steady);
            }
            overall = rule.combine(votes, 0, overall);
            seen[i] = overall;
        }
        return seen;
    }

    @Test
    void twoRegionsFlappingOutOfPhaseDoNotFlipTheOverallStatus() {
        // A down while B up, then B goes down before A comes back, and so on, ten times
        List<HealthStatus[]> failFirst = new ArrayList<>();
        List<HealthStatus[]> recoverFirst = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            failFirst.add(new HealthStatus[] {UNHEALTHY, HEALTHY});
            failFirst.add(new HealthStatus[] {UNHEALTHY, UNHEALTHY});
            failFirst.add(new HealthStatus[] {HEALTHY, UNHEALTHY});
            failFirst.add(new HealthStatus[] {UNHEALTHY, UNHEALTHY});
            recoverFirst.add(new HealthStatus[] {UNHEALTHY, HEALTHY});
            recoverFirst.add(new HealthStatus[] {HEALTHY, HEALTHY});
            recoverFirst.add(new HealthStatus[] {HEALTHY, UNHEALTHY});
            recoverFirst.add(new HealthStatus[] {HEALTHY, HEALTHY});
        }
        HealthStatus[][] ff = failFirst.toArray(HealthStatus[][]::new);
        HealthStatus[][] rf = recoverFirst.toArray(HealthStatus[][]::new);
        // MAJORITY of three with a steady third region: two HEALTHY voters whenever one of A/B is up
        assertThat(overallAlong(MAJORITY, HEALTHY, rf, HEALTHY)).containsOnly(HEALTHY);
        // ANY: one HEALTHY region is always there when they recover first
        assertThat(overallAlong(ANY, null, rf, HEALTHY)).containsOnly(HEALTHY);
        // ALL and MAJORITY of two: one UNHEALTHY region is always there when they fail first
        assertThat(overallAlong(ALL, null, ff, UNHEALTHY)).containsOnly(UNHEALTHY);
        assertThat(overallAlong(MAJORITY, null, ff, UNHEALTHY)).containsOnly(UNHEALTHY);
    }

    @Test
    void randomisedPropertiesOfEveryPolicy() {
        Random random = new Random(8);
        List<QuorumRule> rules = List.of(ANY, MAJORITY, ALL, AT_LEAST_2, new QuorumRule(QuorumPolicy.AT_LEAST, 4));
        for (int round = 0; round < 20_000; round++) {
            QuorumRule rule = rules.get(random.nextInt(rules.size()));
            int n = 1 + random.nextInt(6);
            List<HealthStatus> votes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                votes.add(VOTES.get(random.nextInt(VOTES.size())));
            }
            int silent = random.nextInt(3);
            HealthStatus previous = PREVIOUS.get(random.nextInt(3));
            HealthStatus overall = rule.combine(votes, silent, previous);
            String why = rule + " votes " + votes + " silent " + silent + " previous " + previous;

            // a voter that goes silent never turns the target UNHEALTHY
            int gone = random.nextInt(n);
            List<HealthStatus> fewer = new ArrayList<>(votes);
            fewer.remove(gone);
            if (overall != UNHEALTHY) {
                assertThat(rule.combine(fewer, silent + 1, overall)).as(why + ", silencing " + gone)
                        .isNotEqualTo(UNHEALTHY);
            }
            // a vote that improves never makes the overall status worse; one that worsens never makes it better
            int changed = random.nextInt(n);
            List<HealthStatus> better = new ArrayList<>(votes);
            better.set(changed, votes.get(changed) == UNHEALTHY ? DETECTING : HEALTHY);
            HealthStatus afterBetter = rule.combine(better, silent, overall);
            if (overall == HEALTHY) {
                assertThat(afterBetter).as(why + ", improving " + changed).isEqualTo(HEALTHY);
            }
            if (overall != UNHEALTHY) {
                assertThat(afterBetter).as(why + ", improving " + changed).isNotEqualTo(UNHEALTHY);
            }
            List<HealthStatus> worse = new ArrayList<>(votes);
            worse.set(changed, votes.get(changed) == HEALTHY ? DETECTING : UNHEALTHY);
            HealthStatus afterWorse = rule.combine(worse, silent, overall);
            if (overall == UNHEALTHY) {
                assertThat(afterWorse).as(why + ", worsening " + changed).isEqualTo(UNHEALTHY);
            }
            if (overall != HEALTHY) {
                assertThat(afterWorse).as(why + ", worsening " + changed).isNotEqualTo(HEALTHY);
            }
            // combining twice is stable: the result only depends on votes once decided
            assertThat(rule.combine(votes, silent, overall)).as(why).isEqualTo(overall);
        }
    }
}
