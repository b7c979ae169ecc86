package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.IntervalState.Phase;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * State-dependent intervals through the real scheduler on a manual clock: every transition of the pace (steady,
 * fast while a change is pending, down while UNHEALTHY), at a fixed rate and at a fixed delay, with flapping,
 * INCONCLUSIVE verdicts, a definition change and a removal in the middle of a run.
 */
class IntervalSchedulingTest {

    private final ManualTimer timer = new ManualTimer();
    private final RecordingListener listener = new RecordingListener();
    private final Map<String, Outcome> outcomes = new HashMap<>();

    private ProbeScheduler scheduler(ScriptedEngine engine) {
        return new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0, 100, 0);
    }

    /** Each probe answers with the outcome set for its target now, after {@code takes}; TIMEOUT takes the timeout. */
    private ScriptedEngine engine(Duration takes) {
        return new ScriptedEngine(timer, spec -> {
            Outcome o = outcomes.getOrDefault(spec.id(), Outcome.SUCCESS);
            return new Answer(o, o == Outcome.TIMEOUT ? Duration.ofMillis(spec.timeoutMs()) : takes);
        });
    }

    private static TargetSpec tcp(String id) {
        return TargetSpec.of(id, "g", "10.0.0.1", 80, Protocol.TCP).withTiming(10_000, 1_000).withThresholds(3, 3)
                .withIntervals(2_000, 30_000);
    }

    private void advanceTo(long ms) {
        timer.advance(Duration.ofMillis(ms - timer.nowMillis()));
    }

    @Test
    void fixedRateGoesThroughEveryPhase() {
        ScriptedEngine engine = engine(Duration.ofMillis(100));
        ProbeScheduler s = scheduler(engine);
        s.schedule(tcp("t"));
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);

        advanceTo(25_000);                                   // 0, 10, 20: healthy, steady
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);
        outcomes.put("t", Outcome.CONNECTION_REFUSED);
        advanceTo(31_000);                                   // first failure at 30: fast
        assertThat(s.phaseOf("t")).isEqualTo(Phase.PENDING);
        advanceTo(35_000);                                   // 32, 34: the third decides, down
        assertThat(s.phaseOf("t")).isEqualTo(Phase.DOWN);
        advanceTo(100_000);                                  // 64, 94 at the down interval
        outcomes.put("t", Outcome.SUCCESS);
        advanceTo(125_000);                                  // first success at 124: fast
        assertThat(s.phaseOf("t")).isEqualTo(Phase.PENDING);
        advanceTo(150_000);                                  // 126, 128 decide healthy; then 138, 148
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);

        assertThat(engine.startMillis("t")).containsExactly(0L, 10_000L, 20_000L, 30_000L, 32_000L, 34_000L,
                64_000L, 94_000L, 124_000L, 126_000L, 128_000L, 138_000L, 148_000L);
        assertThat(listener.skipped).as("a change of pace skips no slot").isEmpty();
        // the aggregator's windows at a fixed rate: (threshold - 1) x fastInterval after the first disagreeing probe
        assertThat(34_000 - 30_000).isEqualTo((3 - 1) * 2_000);
        assertThat(128_000 - 124_000).isEqualTo((3 - 1) * 2_000);
    }

    @Test
    void fixedDelayGoesThroughEveryPhase() {
        ScriptedEngine engine = engine(Duration.ofSeconds(1));
        ProbeScheduler s = scheduler(engine);
        s.schedule(TargetSpec.of("w", "g", "10.0.0.1", 80, Protocol.HTTP).withTiming(5_000, 2_000)
                .withThresholds(3, 3).withIntervals(1_000, 20_000));

        advanceTo(14_000);                                   // 0-1, 6-7, 12-13: healthy
        outcomes.put("w", Outcome.TIMEOUT);
        advanceTo(27_000);                                   // 18-20, then fast: 21-23, 24-26 (down)
        assertThat(s.phaseOf("w")).isEqualTo(Phase.DOWN);
        advanceTo(60_000);                                   // 46-48 at the down interval
        outcomes.put("w", Outcome.SUCCESS);
        advanceTo(80_000);                                   // 68-69, then fast 70-71, 72-73 (healthy), 78-79
        assertThat(s.phaseOf("w")).isEqualTo(Phase.STEADY);

        assertThat(engine.startMillis("w")).containsExactly(0L, 6_000L, 12_000L, 18_000L, 21_000L, 24_000L,
                46_000L, 68_000L, 70_000L, 72_000L, 78_000L);
        // BEHAVIOUR.md 5b at a fixed delay: timeout x u + fast x (u - 1) = 2 x 3 + 1 x 2 = 8 s from the first start
        assertThat(26_000 - 18_000).isEqualTo(2_000 * 3 + 1_000 * 2);
        // and responseTime x h + fast x (h - 1) = 1 x 3 + 1 x 2 = 5 s
        assertThat(73_000 - 68_000).isEqualTo(1_000 * 3 + 1_000 * 2);
    }

    @Test
    void flappingInsideARunSwitchesBetweenFastAndSteadyAndNeverGoesDown() {
        List<Outcome> script = new ArrayList<>(List.of(Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS,
                Outcome.TIMEOUT, Outcome.TIMEOUT, Outcome.SUCCESS, Outcome.TIMEOUT, Outcome.SUCCESS));
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> {
            Outcome o = script.isEmpty() ? Outcome.SUCCESS : script.remove(0);
            return new Answer(o, o == Outcome.TIMEOUT ? Duration.ofMillis(1_000) : Duration.ZERO);
        });
        ProbeScheduler s = scheduler(engine);
        s.schedule(tcp("t"));
        advanceTo(70_000);
        // 0, 10, 20 S; 30 T (fast) 32 T (fast) 34 S (steady) 44 T (fast) 46 S (steady) 56, 66
        assertThat(engine.startMillis("t")).containsExactly(0L, 10_000L, 20_000L, 30_000L, 32_000L, 34_000L,
                44_000L, 46_000L, 56_000L, 66_000L);
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);
    }

    @Test
    void anInconclusiveVerdictNeitherCountsNorEndsTheFastPhase() {
        List<Outcome> script = new ArrayList<>(List.of(Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS,
                Outcome.CONNECTION_REFUSED, Outcome.INCONCLUSIVE, Outcome.CONNECTION_REFUSED,
                Outcome.CONNECTION_REFUSED));
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> new Answer(
                script.isEmpty() ? Outcome.CONNECTION_REFUSED : script.remove(0), Duration.ZERO));
        ProbeScheduler s = scheduler(engine);
        s.schedule(tcp("t"));
        advanceTo(39_000);                                   // 0, 10, 20 S; 30 F; 32 I; 34 F; 36 F: down
        assertThat(s.phaseOf("t")).isEqualTo(Phase.DOWN);
        assertThat(engine.startMillis("t")).containsExactly(0L, 10_000L, 20_000L, 30_000L, 32_000L, 34_000L,
                36_000L);
    }

    @Test
    void aNewDefinitionMidRunStartsOverAtTheIntervalAndAThresholdChangeKeepsThePace() {
        ScriptedEngine engine = engine(Duration.ZERO);
        ProbeScheduler s = scheduler(engine);
        s.schedule(tcp("t"));
        advanceTo(25_000);
        outcomes.put("t", Outcome.CONNECTION_REFUSED);
        advanceTo(31_000);                                   // failure at 30: fast
        assertThat(s.phaseOf("t")).isEqualTo(Phase.PENDING);

        s.schedule(tcp("t").withThresholds(2, 5));           // thresholds only: same schedule, same pace
        assertThat(s.phaseOf("t")).isEqualTo(Phase.PENDING);
        s.schedule(tcp("t").withThresholds(2, 1));           // lowered under the count: decided at once
        assertThat(s.phaseOf("t")).isEqualTo(Phase.DOWN);

        s.schedule(tcp("t").withIntervals(1_000, 30_000));   // another fast interval: a new schedule
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);
        int before = engine.startMillis("t").size();
        advanceTo(31_500);
        assertThat(engine.startMillis("t")).hasSize(before + 1).last().isEqualTo(31_000L);
        assertThat(s.phaseOf("t")).as("the failure counts from one again").isEqualTo(Phase.PENDING);
    }

    @Test
    void aRemovedTargetStopsAndComesBackUndecided() {
        ScriptedEngine engine = engine(Duration.ZERO);
        ProbeScheduler s = scheduler(engine);
        outcomes.put("t", Outcome.CONNECTION_REFUSED);
        s.schedule(tcp("t"));
        advanceTo(5_000);                                    // 0 F, 2 F, 4 F: down
        assertThat(s.phaseOf("t")).isEqualTo(Phase.DOWN);

        s.remove("t");                                       // disabled, or moved to another prober
        assertThat(s.phaseOf("t")).isNull();
        advanceTo(60_000);
        assertThat(engine.startMillis("t")).containsExactly(0L, 2_000L, 4_000L);

        s.schedule(tcp("t"));                                // enabled again, or moved back
        assertThat(s.phaseOf("t")).isEqualTo(Phase.STEADY);
        advanceTo(65_000);                                   // 60 F: fast again, 62 F, 64 F: down
        assertThat(engine.startMillis("t")).endsWith(60_000L, 62_000L, 64_000L);
        assertThat(s.phaseOf("t")).isEqualTo(Phase.DOWN);
    }

    @Test
    void aVerdictThatEndsAsTheFastSlotFallsDueStartsTheNextProbeAtOnce() {
        // timeout = fastInterval: the first timeout's verdict comes exactly when the next fast slot is due
        ScriptedEngine engine = engine(Duration.ZERO);
        ProbeScheduler s = scheduler(engine);
        s.schedule(TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP).withTiming(10_000, 2_000)
                .withThresholds(3, 3).withIntervals(2_000, null));
        advanceTo(25_000);
        outcomes.put("t", Outcome.TIMEOUT);
        advanceTo(40_000);
        assertThat(engine.startMillis("t")).startsWith(0L, 10_000L, 20_000L, 30_000L, 32_000L);
    }

    @Test
    void targetsThatFailTogetherKeepTheirOwnPhases() {
        // ten targets whose first starts the jitter spread one second apart; all fail at once
        AtomicInteger next = new AtomicInteger();
        ScriptedEngine engine = engine(Duration.ofMillis(50));
        ProbeScheduler s = new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer),
                () -> next.getAndIncrement() / 10.0, 100, 1.0);
        for (int i = 0; i < 10; i++) {
            s.schedule(tcp("t" + i));
        }
        advanceTo(35_000);
        for (int i = 0; i < 10; i++) {
            outcomes.put("t" + i, Outcome.CONNECTION_REFUSED);
        }
        advanceTo(60_000);
        for (int i = 0; i < 10; i++) {
            final int second = i % 2;
            assertThat(s.phaseOf("t" + i)).isEqualTo(Phase.DOWN);
            List<Long> starts = engine.startMillis("t" + i);
            // the jitter put t<i> at about i seconds (floating point: a millisecond early at most)
            assertThat(starts).as("t%d's fast probes keep its own phase", i)
                    .allSatisfy(ms -> assertThat(Math.round(ms / 1_000.0) % 2).isEqualTo((long) second));
            for (int k = 1; k < starts.size(); k++) {
                assertThat(starts.get(k) - starts.get(k - 1)).isGreaterThanOrEqualTo(2_000L);
            }
        }
    }
}
