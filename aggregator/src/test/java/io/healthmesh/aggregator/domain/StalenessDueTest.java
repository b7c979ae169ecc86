package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.QuorumPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TargetHealthState#nextStalenessCheckMs}: before the instant it names, a staleness check changes nothing
 * (so skipping it loses nothing); at it, the check that was due does change what the rule says it changes.
 */
class StalenessDueTest {

    private static final StalenessRule RULE = StalenessRule.DEFAULT;
    private static final ResultTrust TRUST = new ResultTrust(60_000, 20_000);
    private static final TargetEssentials THREE_REGIONS = new TargetEssentials("t", "g", true, new Thresholds(2, 2),
            1_000, 500, List.of("eu", "us", "ap"), QuorumRule.MAJORITY, 1L);
    private static final TargetEssentials ANY_REGION = new TargetEssentials("t", "g", true, new Thresholds(1, 3),
            2_000, 700, List.of(), new QuorumRule(QuorumPolicy.ANY, 1), 1L);
    private static final List<String> REGIONS = List.of("eu", "us", "ap");

    @Test
    void aRegionGoesStaleExactlyWhenDue() {
        TargetHealthState s = TargetHealthState.create(THREE_REGIONS, 0, 0).after()
                .apply(result("eu", 1_000, true), 1_000).after();
        // the region heard at 1,000 votes: the target cannot go stale before it does
        long regionDue = 1_000 + RULE.windowMs(1_000, 500) + 1;
        assertThat(s.nextStalenessCheckMs(0, RULE, TRUST)).isEqualTo(regionDue);
        assertThat(s.checkStaleness(regionDue - 1, 0, RULE, TRUST).stateChanged()).isFalse();
        TargetHealthState stale = s.checkStaleness(regionDue, 0, RULE, TRUST).after();
        assertThat(stale.regions().get("eu").stale()).isTrue();
        assertThat(stale.stale()).isTrue();
        // then nothing until the stale region is forgotten
        assertThat(stale.nextStalenessCheckMs(0, RULE, TRUST)).isEqualTo(1_000 + TRUST.regionEvictionMs() + 1);
        assertThat(stale.nextStalenessCheckMs(0, RULE, null)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void silenceBeforeTheAggregatorStartedDoesNotCount() {
        TargetHealthState s = TargetHealthState.create(THREE_REGIONS, 0, 0).after()
                .apply(result("eu", 1_000, true), 1_000).after();
        assertThat(s.nextStalenessCheckMs(50_000, RULE, TRUST)).isEqualTo(50_000 + RULE.windowMs(1_000, 500) + 1);
    }

    @Test
    void aDisabledTargetIsNeverDue() {
        TargetEssentials off = new TargetEssentials("t", "g", false, new Thresholds(2, 2), 1_000, 500, List.of(),
                QuorumRule.MAJORITY, 1L);
        TargetHealthState s = TargetHealthState.create(off, 0, 0).after();
        assertThat(s.status()).isEqualTo(HealthStatus.DISABLED);
        assertThat(s.nextStalenessCheckMs(0, RULE, TRUST)).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * Random walks of results, checks and redefinitions: at every state reached, a check at any instant before the
     * due time leaves the state as it is.
     */
    @Test
    void beforeItIsDueACheckNeverChangesAnything() {
        Random random = new Random(20261201L);
        int checked = 0;
        int changedWhenDue = 0;
        for (int walk = 0; walk < 400; walk++) {
            TargetEssentials spec = random.nextBoolean() ? THREE_REGIONS : ANY_REGION;
            long now = random.nextInt(5_000);
            long notBefore = random.nextBoolean() ? 0 : random.nextInt(10_000);
            TargetHealthState s = TargetHealthState.create(spec, now, now).after();
            for (int step = 0; step < 60; step++) {
                now += random.nextInt(random.nextInt(4) == 0 ? 30_000 : 2_500);
                int what = random.nextInt(10);
                if (what < 6) {
                    String region = REGIONS.get(random.nextInt(REGIONS.size()));
                    Outcome outcome = switch (random.nextInt(5)) {
                        case 0 -> Outcome.TIMEOUT;
                        case 1 -> Outcome.INCONCLUSIVE;
                        default -> Outcome.SUCCESS;
                    };
                    s = s.apply(new ProbeObservation(region, 1L, outcome, now - random.nextInt(300), 900, null),
                            now).after();
                } else if (what < 9) {
                    s = s.checkStaleness(now, notBefore, RULE, TRUST).after();
                } else {
                    s = s.redefine(spec, now, now).after();
                }
                long due = s.nextStalenessCheckMs(notBefore, RULE, TRUST);
                long horizon = Math.min(due - 1, now + 200_000);
                for (int probe = 0; probe < 3 && horizon >= now; probe++) {
                    long at = now + (long) (random.nextDouble() * (horizon - now));
                    assertThat(s.checkStaleness(at, notBefore, RULE, TRUST).stateChanged())
                            .as("walk %d step %d: check at %d before due %d of %s", walk, step, at, due, s)
                            .isFalse();
                    checked++;
                }
                if (due != Long.MAX_VALUE && due >= now && s.checkStaleness(due, notBefore, RULE, TRUST).stateChanged()) {
                    changedWhenDue++;
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
        // the due time is not uselessly early: most checks at it do change something
        assertThat(changedWhenDue).isGreaterThan(1_000);
    }

    private static ProbeObservation result(String region, long startedAtMs, boolean up) {
        return new ProbeObservation(region, 1L, up ? Outcome.SUCCESS : Outcome.TIMEOUT, startedAtMs, 1_000, null);
    }
}
