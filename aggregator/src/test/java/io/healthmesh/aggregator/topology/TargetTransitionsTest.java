package io.healthmesh.aggregator.topology;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** BEHAVIOUR.md section 2 through the topology: every transition, thresholds, generations, ordering, deletion. */
class TargetTransitionsTest {

    private static final TargetSpec WEB = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.HTTP);

    @TempDir
    Path stateDir;
    private AggregatorDriver d;

    @BeforeEach
    void start() {
        d = new AggregatorDriver(stateDir);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    private TargetHealth single() {
        List<TestRecord<String, TargetHealth>> events = d.healthEvents();
        assertThat(events).hasSize(1);
        return events.get(0).value();
    }

    /** Feeds {@code n} results one second apart, each answering in {@code latencyMs}. */
    private void feed(TargetSpec spec, Outcome outcome, int n, double fromSecond) {
        for (int i = 0; i < n; i++) {
            d.at(fromSecond + i).result(spec, "default", outcome, 100);
        }
    }

    @Test
    void aNewTargetEmitsDetectingWithItsGenerationAndNoPreviousStatus() {
        d.at(0).define(WEB);
        TestRecord<String, TargetHealth> event = d.health.readRecord();
        assertThat(event.key()).isEqualTo("web-1");
        TargetHealth h = event.value();
        assertThat(h.getStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(h.getPreviousStatus()).isNull();
        assertThat(h.getGroup()).isEqualTo("pool");
        assertThat(h.getGeneration()).isEqualTo(ProbeFingerprint.of(WEB));
        assertThat(h.getStale()).isFalse();
        assertThat(h.getRegions()).isEmpty();
        assertThat(d.health.isEmpty()).isTrue();
    }

    @Test
    void detectingToHealthyAfterThreeSuccessesAndNothingInBetween() {
        d.at(0).define(WEB);
        d.healthEvents();
        feed(WEB, Outcome.SUCCESS, 2, 1);
        assertThat(d.health.isEmpty()).as("counters alone never emit").isTrue();
        d.at(3).result(WEB, "default", Outcome.SUCCESS, 100);
        TargetHealth h = single();
        assertThat(h.getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(h.getPreviousStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(h.getConsecutiveSuccesses()).isEqualTo(3);
        assertThat(h.getConsecutiveFailures()).isZero();
        assertThat(h.getReason()).isEqualTo(ProbeOutcome.SUCCESS);
        assertThat(h.getLatencyMicros()).isEqualTo(100_000L);
        assertThat(h.getSinceMs()).isEqualTo(d.now());
        assertThat(h.getLastResultAtMs()).isEqualTo(d.now() - 100);
        assertThat(h.getRegions()).hasSize(1);
        assertThat(h.getRegions().get(0).getRegion()).isEqualTo("default");
        assertThat(h.getRegions().get(0).getStatus()).isEqualTo(HealthStatus.HEALTHY);
    }

    @Test
    void detectingToUnhealthyHealthyToUnhealthyAndBack() {
        d.at(0).define(WEB);
        d.healthEvents();
        feed(WEB, Outcome.TIMEOUT, 3, 1);
        TargetHealth down = single();
        assertThat(down.getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(down.getPreviousStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(down.getReason()).isEqualTo(ProbeOutcome.TIMEOUT);
        assertThat(down.getReasonDetail()).isEqualTo("TIMEOUT");
        assertThat(down.getConsecutiveFailures()).isEqualTo(3);

        // two successes and a failure in between: the counters reset each other, no change
        feed(WEB, Outcome.SUCCESS, 2, 10);
        d.at(12).result(WEB, "default", Outcome.CONNECTION_REFUSED, 100);
        feed(WEB, Outcome.SUCCESS, 2, 13);
        assertThat(d.health.isEmpty()).isTrue();
        d.at(15).result(WEB, "default", Outcome.SUCCESS, 100);
        TargetHealth up = single();
        assertThat(up.getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(up.getPreviousStatus()).isEqualTo(HealthStatus.UNHEALTHY);

        feed(WEB, Outcome.UNEXPECTED_STATUS, 2, 20);
        assertThat(d.health.isEmpty()).isTrue();
        d.at(22).result(WEB, "default", Outcome.UNEXPECTED_STATUS, 100);
        TargetHealth downAgain = single();
        assertThat(downAgain.getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(downAgain.getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(downAgain.getSinceMs()).isEqualTo(d.now());
    }

    @Test
    void aStatusChangeRecordsHowLongAfterItsProbesCompletionTheEventWasWritten() {
        d.at(0).define(WEB);
        d.healthEvents();
        feed(WEB, Outcome.SUCCESS, 2, 1);
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_MAX, null)).as("no status change yet").isZero();
        // the deciding success completed 400 ms before the aggregator took it (a prober's buffer, a lagging task)
        d.at(3.5).resultStamped(WEB, "default", Outcome.SUCCESS, d.now() - 400);
        assertThat(single().getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_MAX, null)).isEqualTo(0.4);

        // results that change no status are not timed, however old
        d.at(4.5).resultStamped(WEB, "default", Outcome.SUCCESS, d.now() - 900);
        assertThat(d.health.isEmpty()).isTrue();
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_MAX, null)).isEqualTo(0.4);

        // two failures are counters only; the third, taken the moment it completed, flips the target
        feed(WEB, Outcome.TIMEOUT, 3, 6);
        assertThat(single().getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_MAX, null)).isEqualTo(0.4);
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_AVG, null)).isEqualTo(0.2);

        // a minute and more without a status change: the sampled max has nothing left (what the alert rule reads)
        d.at(70);
        assertThat(d.metric(AggregatorMetrics.STATUS_CHANGE_DELAY_MAX, null)).isNaN();
    }

    @Test
    void aDisabledTargetIsDisabledIgnoresResultsAndStartsOverWhenEnabled() {
        d.at(0).define(WEB.withEnabled(false));
        assertThat(single().getStatus()).isEqualTo(HealthStatus.DISABLED);
        feed(WEB, Outcome.SUCCESS, 3, 1);
        assertThat(d.health.isEmpty()).isTrue();
        assertThat(d.metric(AggregatorMetrics.IGNORED, "DISABLED")).isEqualTo(3);
        d.at(10).define(WEB);
        TargetHealth on = single();
        assertThat(on.getStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(on.getPreviousStatus()).isEqualTo(HealthStatus.DISABLED);
    }

    @Test
    void thresholdOnlyChangeKeepsCountersAndReevaluates() {
        d.at(0).define(WEB);
        feed(WEB, Outcome.SUCCESS, 2, 1);
        d.healthEvents();
        d.at(5).define(WEB.withThresholds(2, 3));
        TargetHealth h = single();
        assertThat(h.getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(h.getConsecutiveSuccesses()).isEqualTo(2);
        assertThat(h.getGeneration()).isEqualTo(ProbeFingerprint.of(WEB));
        // a threshold the counters do not reach changes nothing and emits nothing
        d.at(6).define(WEB.withThresholds(2, 2));
        assertThat(d.health.isEmpty()).as("same status, same generation: no event").isTrue();
    }

    @Test
    void changedProbeParametersReturnToDetectingAndOldGenerationResultsAreIgnored() {
        d.at(0).define(WEB);
        feed(WEB, Outcome.SUCCESS, 3, 1);
        d.healthEvents();
        TargetSpec moved = WEB.withHttp(new HttpSpec(HttpSpec.DEFAULTS.method(), "/healthz", null, List.of("2xx"),
                false, java.util.Map.of(), null, false));
        assertThat(ProbeFingerprint.of(moved)).isNotEqualTo(ProbeFingerprint.of(WEB));
        d.at(10).define(moved);
        TargetHealth h = single();
        assertThat(h.getStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(h.getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(h.getGeneration()).isEqualTo(ProbeFingerprint.of(moved));
        assertThat(h.getRegions()).isEmpty();
        // results still in flight from the old generation change nothing
        feed(WEB, Outcome.TIMEOUT, 5, 11);
        assertThat(d.health.isEmpty()).isTrue();
        assertThat(d.metric(AggregatorMetrics.IGNORED, "OTHER_GENERATION")).isEqualTo(5);
        feed(moved, Outcome.TIMEOUT, 3, 20);
        assertThat(single().getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    @Test
    void resultsOlderThanTheLastAppliedAreIgnored() {
        d.at(0).define(WEB);
        d.healthEvents();
        long gen = ProbeFingerprint.of(WEB);
        d.at(10);
        d.result("web-1", gen, "default", Outcome.TIMEOUT, d.now() - 100, 100);
        d.result("web-1", gen, "default", Outcome.TIMEOUT, d.now() - 2_000, 100);
        d.result("web-1", gen, "default", Outcome.TIMEOUT, d.now() - 100, 100);
        assertThat(d.metric(AggregatorMetrics.IGNORED, "OUT_OF_ORDER")).isEqualTo(2);
        d.at(11).result(WEB, "default", Outcome.TIMEOUT, 100);
        assertThat(d.health.isEmpty()).as("only two failures were applied").isTrue();
        d.at(12).result(WEB, "default", Outcome.TIMEOUT, 100);
        assertThat(single().getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
    }

    @Test
    void deletingATargetEmitsATombstoneAndForgetsIt() {
        d.at(0).define(WEB);
        feed(WEB, Outcome.SUCCESS, 3, 1);
        d.healthEvents();
        d.at(5).delete("web-1");
        List<TestRecord<String, TargetHealth>> events = d.healthEvents();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).key()).isEqualTo("web-1");
        assertThat(events.get(0).value()).isNull();
        assertThat(d.driver.<String, Object>getKeyValueStore(AggregatorTopology.TARGET_STORE).get("web-1")).isNull();
        // a second tombstone changes nothing; a late result is for an unknown target: held for its definition
        d.at(6).delete("web-1");
        assertThat(d.health.isEmpty()).isTrue();
        d.at(7).result(WEB, "default", Outcome.SUCCESS, 100);
        assertThat(d.rejected.isEmpty()).isTrue();
        // defined again, it starts from scratch: the late result, stamped before the new definition, is rejected
        d.at(8).define(WEB);
        assertThat(d.rejected.readRecordsToList()).hasSize(1);
        TargetHealth again = single();
        assertThat(again.getStatus()).isEqualTo(HealthStatus.DETECTING);
        assertThat(again.getPreviousStatus()).isNull();
    }

    @Test
    void weightZeroTargetsAreJudgedLikeAnyOther() {
        TargetSpec zero = new TargetSpec("w0", "pool", "10.0.0.2", 80, Protocol.TCP, 5_000, 2_000, 3, 3, true, 0,
                null, null, null, null, null, null, 1);
        d.at(0).define(zero);
        feed(zero, Outcome.SUCCESS, 3, 1);
        List<TestRecord<String, TargetHealth>> events = d.healthEvents();
        assertThat(events).extracting(e -> e.value().getStatus())
                .containsExactly(HealthStatus.DETECTING, HealthStatus.HEALTHY);
    }
}
