package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultTrustTest {

    private static final TargetEssentials LISTED = new TargetEssentials("t", "g", true, new Thresholds(1, 1), 1_000,
            500, List.of("eu", "us"), QuorumRule.MAJORITY, 7L);
    private static final TargetEssentials ANYWHERE = new TargetEssentials("t", "g", true, new Thresholds(1, 1), 1_000,
            500, List.of(), QuorumRule.MAJORITY, 7L);
    private static final ResultTrust TRUST = new ResultTrust(60_000, 600_000);

    private static ProbeObservation at(String region, long startedAtMs) {
        return new ProbeObservation(region, 7L, Outcome.SUCCESS, startedAtMs, 1_000, null);
    }

    @Test
    void resultsUpToTheSkewAheadAreTrustedBeyondItNot() {
        assertThat(TRUST.check(LISTED, at("eu", 100_000 + 60_000), 100_000)).isNull();
        assertThat(TRUST.check(LISTED, at("eu", 100_000 + 60_001), 100_000)).isEqualTo(ResultTrust.Distrust.FUTURE_RESULT);
        assertThat(TRUST.check(LISTED, at("eu", Long.MAX_VALUE), Long.MIN_VALUE + 1))
                .isEqualTo(ResultTrust.Distrust.FUTURE_RESULT);
        assertThat(TRUST.check(LISTED, at("eu", 0), 100_000)).isNull();
    }

    @Test
    void onlyListedRegionsAreTrustedWhenTheTargetListsThem() {
        assertThat(TRUST.check(LISTED, at("ap", 1), 1)).isEqualTo(ResultTrust.Distrust.UNLISTED_REGION);
        assertThat(TRUST.check(ANYWHERE, at("ap", 1), 1)).isNull();
    }

    @Test
    void aRegionSilentForTheEvictionTimeIsForgottenCountingFromWhenTheAggregatorStarted() {
        TargetHealthState s = TargetHealthState.create(ANYWHERE, 0, 0).after()
                .apply(at("eu", 1_000), 1_000).after()
                .apply(at("ap", 1_000), 1_000).after();
        assertThat(s.regions()).containsOnlyKeys("ap", "eu");
        TargetHealthState kept = s.checkStaleness(601_000, 0, StalenessRule.DEFAULT, TRUST).after();
        assertThat(kept.regions()).containsOnlyKeys("ap", "eu");
        assertThat(kept.regions().values()).allSatisfy(r -> assertThat(r.stale()).isTrue());
        assertThat(s.checkStaleness(601_001, 0, StalenessRule.DEFAULT, TRUST).after().regions()).isEmpty();
        // an aggregator that started late does not count the silence before it
        assertThat(s.checkStaleness(601_001, 500_000, StalenessRule.DEFAULT, TRUST).after().regions()).hasSize(2);
        assertThat(s.checkStaleness(601_001, 0, StalenessRule.DEFAULT).after().regions()).hasSize(2);
        assertThat(s.status()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> new ResultTrust(-1, 1)).hasMessage("result.max.future.skew.ms: -1 (expected: 0 or more)");
        assertThatThrownBy(() -> new ResultTrust(0, 0)).hasMessage("region.eviction.ms: 0 (expected: 1 or more)");
    }
}
