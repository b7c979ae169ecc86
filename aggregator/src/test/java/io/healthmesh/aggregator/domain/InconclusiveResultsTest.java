package io.healthmesh.aggregator.domain;

import io.healthmesh.aggregator.topology.StateEvents;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

/** An INCONCLUSIVE result is like a missing one: it moves no counter and can only let a region go stale. */
class InconclusiveResultsTest {

    private static final long GEN = 7L;
    private static final int INTERVAL = 1_000;
    private static final int TIMEOUT = 500;
    /** 3 x 1 s + 0.5 s. */
    private static final long WINDOW = 3_500;

    private static final TargetEssentials SPEC = new TargetEssentials("t1", "web", true, new Thresholds(3, 3), INTERVAL,
            TIMEOUT, List.of(), QuorumRule.MAJORITY, GEN);

    private static ProbeObservation result(Outcome outcome, long startedAt) {
        return new ProbeObservation("eu", GEN, outcome, startedAt, 1_000,
                outcome == Outcome.INCONCLUSIVE ? "late-start: started 900 ms late (bound 125 ms); TIMEOUT" : null);
    }

    private static TargetHealthState healthy() {
        TargetHealthState s = TargetHealthState.create(SPEC, 0, 0).after();
        for (int i = 0; i < 3; i++) {
            s = s.apply(result(Outcome.SUCCESS, i * 1_000L), i * 1_000L + 1).after();
        }
        assertThat(s.status()).isEqualTo(HEALTHY);
        return s;
    }

    @Test
    void anInconclusiveResultMovesNoCounterAndEmitsNothing() {
        TargetHealthState before = healthy().apply(result(Outcome.TIMEOUT, 3_000), 3_001).after();
        TargetUpdate update = before.apply(result(Outcome.INCONCLUSIVE, 4_000), 4_001);

        assertThat(update.ignored()).isEqualTo(IgnoredBecause.INCONCLUSIVE);
        assertThat(update.emits()).isFalse();
        assertThat(update.statusChanged()).isFalse();
        TargetHealthState after = update.after();
        RegionState eu = after.regions().get("eu");
        assertThat(eu.machine()).isEqualTo(before.regions().get("eu").machine());
        assertThat(eu.machine().consecutiveFailures()).isEqualTo(1);
        assertThat(eu.lastOutcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(eu.lastResultAtMs()).isEqualTo(3_000);
        assertThat(eu.lastHeardAtMs()).as("an inconclusive result is not 'heard'").isEqualTo(3_001);
        assertThat(eu.inconclusiveInARow()).isEqualTo(1);
        assertThat(eu.lastInconclusiveDetail()).startsWith("late-start:");
        assertThat(after.lastResult()).isEqualTo(before.lastResult());
    }

    @Test
    void aFlipStillNeedsItsThresholdOfRealFailuresWhateverComesInBetween() {
        TargetHealthState s = healthy();
        long t = 3_000;
        s = s.apply(result(Outcome.TIMEOUT, t), t + 1).after();
        for (int i = 0; i < 20; i++) {
            t += 1_000;
            s = s.apply(result(Outcome.INCONCLUSIVE, t), t + 1).after();
            assertThat(s.status()).isEqualTo(HEALTHY);
        }
        t += 1_000;
        s = s.apply(result(Outcome.CONNECTION_REFUSED, t), t + 1).after();
        assertThat(s.status()).as("two failures, twenty inconclusive").isEqualTo(HEALTHY);
        assertThat(s.regions().get("eu").inconclusiveInARow()).as("a conclusive result resets the count").isZero();
        t += 1_000;
        TargetUpdate third = s.apply(result(Outcome.CONNECTION_REFUSED, t), t + 1);
        assertThat(third.after().status()).isEqualTo(UNHEALTHY);
        assertThat(third.emits()).isTrue();
    }

    @Test
    void onlyInconclusiveResultsLetTheRegionGoStaleButKeepItsStatus() {
        TargetHealthState s = healthy();
        long lastHeard = 2_001;
        for (long t = 3_000; t <= 9_000; t += 1_000) {
            s = s.apply(result(Outcome.INCONCLUSIVE, t), t + 1).after();
        }
        TargetUpdate gone = s.checkStaleness(lastHeard + WINDOW + 1, 0, StalenessRule.DEFAULT);
        assertThat(gone.after().stale()).isTrue();
        assertThat(gone.after().status()).isEqualTo(HEALTHY);
        assertThat(gone.emits()).isTrue();

        TargetHealth event = StateEvents.targetHealth(gone.after(), 20_000);
        RegionHealth eu = event.getRegions().get(0);
        assertThat(eu.getStale()).isTrue();
        assertThat(eu.getInconclusiveInARow()).isEqualTo(7);
        assertThat(eu.getLastInconclusiveDetail()).startsWith("late-start:");
        assertThat(event.getReason().name()).as("the reason stays the last conclusive result").isEqualTo("SUCCESS");
    }

    @Test
    void anInconclusiveResultFromARegionNotYetKnownChangesNothing() {
        TargetHealthState fresh = TargetHealthState.create(SPEC, 0, 0).after();
        TargetUpdate update = fresh.apply(result(Outcome.INCONCLUSIVE, 100), 101);
        assertThat(update.ignored()).isEqualTo(IgnoredBecause.INCONCLUSIVE);
        assertThat(update.stateChanged()).isFalse();
        assertThat(update.after().regions()).isEmpty();
    }
}
