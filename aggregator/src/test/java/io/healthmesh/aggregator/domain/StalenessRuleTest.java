package io.healthmesh.aggregator.domain;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StalenessRuleTest {

    @Test
    void defaultWindowIsThreeIntervalsPlusTheTimeout() {
        assertThat(StalenessRule.DEFAULT.windowMs(5_000, 2_000)).isEqualTo(17_000);
        assertThat(new StalenessRule(1.5).windowMs(1_000, 300)).isEqualTo(1_800);
    }

    @Test
    void staleOnlyStrictlyAfterTheWindowCountedFromTheLaterOfLastHeardAndStart() {
        StalenessRule rule = StalenessRule.DEFAULT;
        assertThat(rule.isStale(17_000, 0, 0, 5_000, 2_000)).isFalse();
        assertThat(rule.isStale(17_001, 0, 0, 5_000, 2_000)).isTrue();
        // the instance started watching at 10 s: silence before that is not counted
        assertThat(rule.isStale(17_001, 0, 10_000, 5_000, 2_000)).isFalse();
        assertThat(rule.isStale(27_001, 0, 10_000, 5_000, 2_000)).isTrue();
    }

    @Test
    void aRegionProbingADownTargetAtItsDownIntervalIsNotStale() {
        TargetSpec spec = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP).withTiming(5_000, 2_000)
                .withIntervals(1_000, 60_000);
        TargetEssentials e = TargetEssentials.of(spec);
        assertThat(e.intervalMs()).isEqualTo(60_000);
        // silent for one down interval (plus the probe) is not stale; three would be
        assertThat(StalenessRule.DEFAULT.isStale(61_000, 0, 0, e.intervalMs(), e.timeoutMs())).isFalse();
        assertThat(StalenessRule.DEFAULT.isStale(182_001, 0, 0, e.intervalMs(), e.timeoutMs())).isTrue();
        assertThat(TargetEssentials.of(spec.withIntervals(null, null)).intervalMs()).isEqualTo(5_000);
    }

    @Test
    void factorOutOfRangeIsRefused() {
        assertThatThrownBy(() -> new StalenessRule(0.5)).hasMessage("staleness.factor: 0.5 (expected: 1..100)");
        assertThatThrownBy(() -> new StalenessRule(Double.NaN)).hasMessage("staleness.factor: NaN (expected: 1..100)");
        assertThatThrownBy(() -> new StalenessRule(101)).hasMessage("staleness.factor: 101.0 (expected: 1..100)");
    }
}
