package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.aggregator.domain.QuorumRule;
import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.aggregator.domain.TargetEssentials;
import io.healthmesh.aggregator.domain.TargetHealthState;
import io.healthmesh.aggregator.domain.TargetUpdate;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Staleness is decided on the aggregator's clock (a region is stale when nothing was processed from it for the
 * window), the records carry only their own times. An aggregator stopped and resumed (SIGSTOP and SIGCONT, a CPU
 * quota) processes a backlog at once, so a region that was silent in record time was never stale for it; replay,
 * deciding staleness on record time, let the other region vote alone and dated HEALTHY earlier, which the self-check
 * reported as a mismatch. Replay now takes staleness from the aggregator's events, where the aggregator decided it,
 * and matches.
 */
class StalenessClockTest {

    private static final long GEN = 7;
    /** Two regions, MAJORITY (both must be HEALTHY while both vote), 2 successes to HEALTHY, 1 failure to UNHEALTHY. */
    private static final TargetEssentials SPEC = new TargetEssentials("t", "g", true, new Thresholds(2, 1), 1_000, 500,
            List.of(), QuorumRule.MAJORITY, GEN);
    private static final StalenessRule RULE = StalenessRule.DEFAULT; // window 3 x 1 s + 0.5 s

    /** One result as recorded: its region, its start and record timestamp, and when the aggregator processed it. */
    private record Recorded(String region, long startedAtMs, boolean success, long processedAtMs) {
        long timestampMs() {
            return startedAtMs + 100;
        }

        ProbeObservation observation() {
            return new ProbeObservation(region, GEN, success ? Outcome.SUCCESS : Outcome.TIMEOUT, startedAtMs, 5_000,
                    null);
        }
    }

    /**
     * r2's prober lags: nothing from r2 between 950 and 4,950 (4 s of record time, more than the window). The
     * aggregator was stopped from 3,000 to 9,000 of its clock and processed the backlog at 9,000, before its next
     * staleness punctuation: it never saw r2 silent.
     */
    private static final List<Recorded> RESULTS = List.of(
            new Recorded("r1", 900, false, 1_000), new Recorded("r2", 950, false, 1_050),
            new Recorded("r1", 1_900, true, 2_000), new Recorded("r1", 2_900, true, 3_000),
            new Recorded("r1", 3_900, true, 9_000), new Recorded("r1", 4_900, true, 9_000),
            new Recorded("r2", 4_950, true, 9_000), new Recorded("r1", 5_900, true, 9_000),
            new Recorded("r2", 5_950, true, 9_000));
    /** The aggregator's wall-clock punctuations: every second while it ran, then one after the backlog. */
    private static final long[] PUNCTUATIONS = {1_000, 2_000, 3_000, 9_000, 10_000};

    @Test
    void aResumedAggregatorsStalenessIsTakenFromItsEventsAndTheSelfCheckMatches() {
        List<EmittedEvent> events = aggregatorEvents();
        // the aggregator: UNHEALTHY, then HEALTHY at r2's second success only (r2 voted all along)
        assertThat(events.stream().map(EmittedEvent::status).distinct().toList())
                .containsExactly(HealthStatus.DETECTING, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
        EmittedEvent healthy = events.stream().filter(e -> e.status() == HealthStatus.HEALTHY).findFirst()
                .orElseThrow();
        assertThat(healthy.state().sinceMs()).isEqualTo(5_955);

        ReplayResult result = replay(Map.of("t", events));

        assertThat(result.check().mismatches()).isEmpty();
        assertThat(result.configuredChanges().get("t")).extracting(StatusChange::to, StatusChange::atMs)
                .containsExactly(tuple(HealthStatus.DETECTING, 0L), tuple(HealthStatus.UNHEALTHY, 905L),
                        tuple(HealthStatus.HEALTHY, 5_955L));
    }

    @Test
    void onRecordTimeAloneReplayLetsR1VoteAloneAndDatesHealthyEarlier() {
        // without the aggregator's events the run decides staleness on record time: r2 is stale at 5,000 and r1 alone
        // is a majority of the voters; the same statuses, HEALTHY dated 955 ms earlier than the aggregator did (the
        // self-check's finding: one interval earlier, while the aggregator was stopped and resumed)
        ReplayResult result = replay(Map.of());

        assertThat(result.configuredChanges().get("t")).extracting(StatusChange::to)
                .containsExactly(HealthStatus.DETECTING, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
        assertThat(result.configuredChanges().get("t").get(2).atMs()).isEqualTo(5_000);
    }

    private static ReplayResult replay(Map<String, List<EmittedEvent>> events) {
        ReplayEngine engine = new ReplayEngine(new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 12_000),
                Map.of("t", List.of(new DefinitionRecord("t", 0, 0, SPEC))), events, RULE, Alternatives.NONE, 1_000,
                0);
        for (Recorded r : RESULTS) {
            engine.result("t", r.timestampMs(), r.observation());
        }
        return engine.finish();
    }

    /** What the aggregator emitted: the domain run on its clock, results in offset order, punctuations between. */
    private static List<EmittedEvent> aggregatorEvents() {
        List<EmittedEvent> events = new ArrayList<>();
        TargetUpdate created = TargetHealthState.create(SPEC, 0, 0);
        TargetHealthState state = created.after();
        events.add(event(0, state, events.size()));
        int p = 0;
        for (Recorded r : RESULTS) {
            while (p < PUNCTUATIONS.length && PUNCTUATIONS[p] < r.processedAtMs()) {
                state = punctuate(state, PUNCTUATIONS[p++], events);
            }
            TargetUpdate update = state.apply(r.observation(), r.processedAtMs());
            if (update.ignored() == null) {
                state = update.after();
                if (update.emits()) {
                    events.add(event(r.timestampMs(), state, events.size()));
                }
            }
        }
        while (p < PUNCTUATIONS.length) {
            state = punctuate(state, PUNCTUATIONS[p++], events);
        }
        return events;
    }

    private static TargetHealthState punctuate(TargetHealthState state, long now, List<EmittedEvent> events) {
        TargetUpdate update = state.checkStaleness(now, 0, RULE, null);
        if (update.stateChanged()) {
            events.add(event(now, update.after(), events.size()));
        }
        return update.after();
    }

    private static EmittedEvent event(long ts, TargetHealthState s, int offset) {
        return new EmittedEvent("t", ts, offset, new EmittedEvent.State(s.spec().group(), s.status(),
                s.previousStatus(), s.sinceMs(), s.stale(), s.generation(), s.lastResult(),
                List.copyOf(s.regions().values())));
    }
}
