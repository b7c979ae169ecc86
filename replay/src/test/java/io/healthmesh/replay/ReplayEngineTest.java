package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.LastResult;
import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.RegionState;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayEngineTest {

    private static final long GEN = 42;
    /** 0 S, 1 S, 2 S, 3 F, 4 S, 5 S, 6 S, 7..11 F, 12..16 S, 17 F, 18 S, 19 S: two one-probe blips, one 5 s outage. */
    private static final String PATTERN = "SSSFSSSFFFFFSSSSSFSS";
    private static final Alternatives THREE_THREE = new Alternatives(3, 3, null, null);

    @Test
    void flipsFlapsAndDelaysUnderTwoThresholdSettings() {
        ReplayResult result = replay(new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 20_000),
                Map.of("t", List.of(definition(0, 0, 1, 1))), Map.of(), THREE_THREE);
        ReplayReport report = result.report(2_000);

        ReplayReport.TargetRow row = report.targets().get(0);
        // 1/1: every blip and the outage flip twice; flaps reversed within 2 s: the two one-probe blips
        assertThat(row.flipsConfigured()).isEqualTo(6);
        assertThat(row.flapsConfigured()).isEqualTo(2);
        // 3/3: only the outage flips (UNHEALTHY at its third failure, HEALTHY at the third success after it)
        assertThat(row.flipsAlternative()).isEqualTo(2);
        assertThat(row.flapsAlternative()).isZero();
        assertThat(row.flapsAvoided()).isEqualTo(2);
        assertThat(row.flapsAdded()).isZero();
        // the outage starts with probe 7 (started at 7,900): 1/1 notices at its completion, 3/3 two probes later
        assertThat(row.outages()).containsExactly(new ReplayReport.OutageRow(7_900, 12_900L, 5L, 2_005L));
        // the group of one fails open whenever its member is not routable (DETECTING or UNHEALTHY)
        assertThat(report.groups()).containsExactly(new ReplayReport.GroupRow("g", 905 + 1_000 + 5_000 + 1_000,
                2_905 + 5_000));
        assertThat(report.totals().flipsConfigured()).isEqualTo(6);
        assertThat(report.totals().flipsAlternative()).isEqualTo(2);
        assertThat(result.results()).isEqualTo(PATTERN.length());
    }

    @Test
    void aWiderFlapSpanCountsEveryReversal() {
        ReplayResult result = replay(new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 20_000),
                Map.of("t", List.of(definition(0, 0, 1, 1))), Map.of(), THREE_THREE);

        // flips at 3,905 / 4,905 / 7,905 / 12,905 / 17,905 / 18,905: with 5 s every next flip reverses within the span
        assertThat(result.report(5_000).targets().get(0).flapsConfigured()).isEqualTo(5);
        // 3/3: the outage's UNHEALTHY (9,905) and HEALTHY (14,905) are 5 s apart: one flap at this span
        assertThat(result.report(5_000).targets().get(0).flapsAlternative()).isEqualTo(1);
    }

    @Test
    void selfCheckMatchesTheEventsOfTheRunAsConfiguredAndNamesTheFirstDifference() {
        Map<String, List<DefinitionRecord>> defs = Map.of("t", List.of(definition(0, 0, 1, 1)));
        ReplayWindow window = new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 20_000);
        // what the aggregator emitted with 1/1: DETECTING, then one event per status change
        List<EmittedEvent> emitted = new ArrayList<>();
        emitted.add(new EmittedEvent("t", 0, 0, new EmittedEvent.State("g", HealthStatus.DETECTING, null, 0, false,
                GEN, null, List.of())));
        HealthStatus last = HealthStatus.DETECTING;
        for (int k = 0; k < PATTERN.length(); k++) {
            HealthStatus s = PATTERN.charAt(k) == 'S' ? HealthStatus.HEALTHY : HealthStatus.UNHEALTHY;
            if (s != last) {
                emitted.add(event(k, s));
                last = s;
            }
        }
        SelfCheck ok = replay(window, defs, Map.of("t", emitted), THREE_THREE).check();
        assertThat(ok.matches()).isTrue();
        assertThat(ok.changes()).isEqualTo(8);

        List<EmittedEvent> missingOne = new ArrayList<>(emitted);
        missingOne.remove(4); // the UNHEALTHY of the outage's first probe (its HEALTHY then merges with the one before)
        SelfCheck bad = replay(window, defs, Map.of("t", missingOne), THREE_THREE).check();
        assertThat(bad.matches()).isFalse();
        // same statuses in the same order, but entered at another time: the UNHEALTHY of probe 17, not probe 7
        assertThat(bad.mismatches()).containsExactly("t: status change #5: aggregator UNHEALTHY since "
                + "1970-01-01T00:00:17.905Z (event offset 18), replay UNHEALTHY since 1970-01-01T00:00:07.905Z");
    }

    @Test
    void aRangeStartsFromTheAggregatorsStateAndCountersNotFromDetecting() {
        // the aggregator's event before the range: HEALTHY with 2 failures counted (threshold 3): the next failure,
        // the first inside the range, turns the target UNHEALTHY at once
        EmittedEvent seed = new EmittedEvent("t", 9_000, 7, new EmittedEvent.State("g", HealthStatus.HEALTHY,
                HealthStatus.DETECTING, 1_000, false, GEN, new LastResult("r", Outcome.TIMEOUT, null, 0, 8_900),
                List.of(new RegionState("r", new HealthStateMachine(GEN, HealthStatus.HEALTHY, 0, 2),
                        Outcome.TIMEOUT, 8_900, 9_000, false))));
        ReplayEngine engine = new ReplayEngine(new ReplayWindow(9_500, 10_000, 20_000),
                Map.of("t", List.of(definition(0, 0, 3, 3))), Map.of("t", List.of(seed)), StalenessRule.DEFAULT,
                new Alternatives(null, 4, null, null), 1_000, 0);
        engine.result("t", 10_000, observation(9_900, false));
        engine.result("t", 11_000, observation(10_900, false));
        ReplayResult result = engine.finish();

        assertThat(result.configuredStart().get("t")).isEqualTo(new StartState("g", HealthStatus.HEALTHY));
        assertThat(result.configuredChanges().get("t")).containsExactly(
                new StatusChange("t", "g", HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, 9_905));
        // with --unhealthy 4 the same counters need one more failure
        assertThat(result.alternativeChanges().get("t")).containsExactly(
                new StatusChange("t", "g", HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, 10_905));
    }

    @Test
    void aDefinitionChangedInsideTheRangeAppliesFromItsOffsetOnAndIsNamed() {
        // 1/1 until 10 s, then 3/3: the blip at 17 no longer flips, the outage (7..11) began under 1/1
        ReplayResult result = replay(new ReplayWindow(0, 0, 20_000),
                Map.of("t", List.of(definition(0, 0, 1, 1), definition(10_000, 5, 3, 3))), Map.of(),
                Alternatives.NONE);

        assertThat(result.report(2_000).targets().get(0).flipsConfigured()).isEqualTo(4);
        assertThat(result.notes()).singleElement().asString()
                .startsWith("definition of t changed at 1970-01-01T00:00:10Z (offset 5): ")
                .contains("thresholds 3/3")
                .endsWith("applied from that offset on");
    }

    @Test
    void resultsOfATargetWithoutDefinitionAreCountedNotApplied() {
        ReplayEngine engine = new ReplayEngine(new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 20_000),
                Map.of("t", List.of(definition(0, 0, 1, 1))), Map.of(), StalenessRule.DEFAULT, Alternatives.NONE,
                1_000, 0);
        engine.result("ghost", 1_000, observation(900, true));
        ReplayResult result = engine.finish();

        assertThat(result.results()).isZero();
        assertThat(result.notes()).singleElement().asString().startsWith("1 results for targets with no definition");
    }

    private static ReplayResult replay(ReplayWindow window, Map<String, List<DefinitionRecord>> defs,
                                       Map<String, List<EmittedEvent>> events, Alternatives alternatives) {
        ReplayEngine engine = new ReplayEngine(window, defs, events, StalenessRule.DEFAULT, alternatives, 1_000,
                3_000);
        for (int k = 0; k < PATTERN.length(); k++) {
            engine.result("t", recordTs(k), observation(recordTs(k) - 100, PATTERN.charAt(k) == 'S'));
        }
        return engine.finish();
    }

    private static long recordTs(int k) {
        return 1_000L * (k + 1);
    }

    private static ProbeObservation observation(long startedAtMs, boolean success) {
        return new ProbeObservation("r", GEN, success ? Outcome.SUCCESS : Outcome.TIMEOUT, startedAtMs, 5_000, null);
    }

    private static DefinitionRecord definition(long ts, long offset, int healthy, int unhealthy) {
        return new DefinitionRecord("t", ts, offset, new TargetEssentials("t", "g", true,
                new Thresholds(healthy, unhealthy), 1_000, 500, List.of(), QuorumRule.MAJORITY, GEN));
    }

    /** The event the aggregator emits when probe {@code k} changes the status to {@code status}. */
    private static EmittedEvent event(int k, HealthStatus status) {
        long started = recordTs(k) - 100;
        Outcome outcome = PATTERN.charAt(k) == 'S' ? Outcome.SUCCESS : Outcome.TIMEOUT;
        return new EmittedEvent("t", recordTs(k), k + 1, new EmittedEvent.State("g", status, null, started + 5, false,
                GEN, new LastResult("r", outcome, null, 5_000, started), List.of()));
    }
}
