package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProbeSchedulerTest {

    private final ManualTimer timer = new ManualTimer();
    private final RecordingListener listener = new RecordingListener();

    private ProbeScheduler scheduler(ProbeEngine engine, int maxInFlight, double jitter) {
        return new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0,
                maxInFlight, jitter);
    }

    private static TargetSpec target(String id, Protocol protocol, int intervalMs, int timeoutMs) {
        return TargetSpec.of(id, "g", "127.0.0.1", 80, protocol).withTiming(intervalMs, timeoutMs);
    }

    private static Function<TargetSpec, Answer> always(Outcome outcome, Duration takes) {
        return spec -> new Answer(outcome, takes);
    }

    /** End of the n-th (1-based) result of a target, in ms since the test started. */
    private long endOfResult(String id, int n) {
        CompletedProbe p = listener.of(id).get(n - 1);
        return p.startedAtMs() + p.report().latencyMicros() / 1000;
    }

    @Test
    void httpTimingOutEveryTimeTurnsUnhealthyAt16sWithClbSettings() {
        // 000: timeout 2, interval 5, threshold 3 -> 2 + 5 + 2 + 5 + 2 = 16 s
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.TIMEOUT, Duration.ofSeconds(2)));
        scheduler(engine, 100, 0).schedule(target("web", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofSeconds(30));

        assertThat(engine.startMillis("web")).startsWith(0L, 7_000L, 14_000L, 21_000L, 28_000L);
        assertThat(endOfResult("web", 3)).isEqualTo(16_000);
    }

    @Test
    void httpAnsweringInOneSecondTurnsHealthyAt13sWithClbSettings() {
        // 000: 1 + 5 + 1 + 5 + 1 = 13 s
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofSeconds(1)));
        scheduler(engine, 100, 0).schedule(target("web", Protocol.HTTPS, 5_000, 2_000));

        timer.advance(Duration.ofSeconds(13));

        assertThat(engine.startMillis("web")).containsExactly(0L, 6_000L, 12_000L);
        assertThat(endOfResult("web", 3)).isEqualTo(13_000);
    }

    /**
     * The manual timer run as a {@link io.netty.util.HashedWheelTimer} runs tasks: at the end of the tick their
     * deadline falls in (a deadline on a tick's boundary falls in the tick that starts there).
     */
    private io.netty.util.Timer wheelOf(Duration tick) {
        long t = tick.toNanos();
        return new io.netty.util.Timer() {
            @Override
            public io.netty.util.Timeout newTimeout(io.netty.util.TimerTask task, long delay,
                                                    java.util.concurrent.TimeUnit unit) {
                long deadline = timer.nanoTime() + Math.max(0, unit.toNanos(delay));
                return timer.newTimeout(task, (deadline / t + 1) * t - timer.nanoTime(),
                        java.util.concurrent.TimeUnit.NANOSECONDS);
            }

            @Override
            public java.util.Set<io.netty.util.Timeout> stop() {
                return timer.stop();
            }
        };
    }

    @Test
    void aFixedDelayStartsAtTheTickNearestItsPlanOnAWheelTimer() {
        // 1 s answers, 5 s interval, 10 ms ticks: the first start lands at the end of tick 0 (10 ms), each next one is
        // planned 5 s after the last answer; asked 5 ms early it falls on its plan, not one tick after it
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofSeconds(1)));
        new ProbeScheduler(engine, listener, wheelOf(Duration.ofMillis(10)), timer, new TickerClock(timer), () -> 0.0,
                100, 0, ProbeScheduler.DEFAULT_LATE_FRACTION, Duration.ofMillis(10))
                .schedule(target("web", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofSeconds(20));

        assertThat(engine.startMillis("web")).startsWith(10L, 6_010L, 12_010L, 18_010L);
        assertThat(endOfResult("web", 3) - 10).isEqualTo(13_000);   // the 13 s window of 000, from the first start
    }

    @Test
    void withoutItsTickTheWheelAddsOneTickPerFixedDelay() {
        // the same schedule on a scheduler that does not know the tick: every start one tick after its plan, so the
        // window grows by a tick per probe (the drift the tick setting removes)
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofSeconds(1)));
        new ProbeScheduler(engine, listener, wheelOf(Duration.ofMillis(10)), timer, new TickerClock(timer), () -> 0.0,
                100, 0).schedule(target("web", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofSeconds(20));

        assertThat(engine.startMillis("web")).startsWith(10L, 6_020L, 12_030L, 18_040L);
    }

    @Test
    void aTimerTickOutsideItsBoundsIsRefused() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofSeconds(1)));
        assertThatThrownBy(() -> new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0,
                100, 0, ProbeScheduler.DEFAULT_LATE_FRACTION, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timerTick");
        assertThatThrownBy(() -> new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0,
                100, 0, ProbeScheduler.DEFAULT_LATE_FRACTION, Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timerTick");
    }

    @Test
    void edgeOneWindowIs75sAndGlobalAcceleratorWindowIs13s() {
        ScriptedEngine engine = new ScriptedEngine(timer,
                spec -> new Answer(Outcome.TIMEOUT, Duration.ofMillis(spec.timeoutMs())));
        ProbeScheduler scheduler = scheduler(engine, 100, 0);
        scheduler.schedule(target("edgeone", Protocol.HTTP, 30_000, 5_000));   // 001: 5 + 30 + 5 + 30 + 5
        scheduler.schedule(target("ga", Protocol.HTTP, 2_000, 3_000));          // 003: 3x3 + 2x2

        timer.advance(Duration.ofSeconds(80));

        assertThat(endOfResult("edgeone", 3)).isEqualTo(75_000);
        assertThat(endOfResult("ga", 3)).isEqualTo(13_000);
    }

    @Test
    void l4RunsAtFixedRateWhateverTheProbesTake() {
        // interval 5, threshold 3: the third failing probe starts interval x (threshold - 1) = 10 s after the first
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> switch (spec.protocol()) {
            case TCP -> new Answer(Outcome.TIMEOUT, Duration.ofSeconds(2));
            case UDP -> new Answer(Outcome.PORT_UNREACHABLE, Duration.ofMillis(3));
            default -> new Answer(Outcome.SUCCESS, Duration.ofMillis(40));
        });
        ProbeScheduler scheduler = scheduler(engine, 100, 0);
        scheduler.schedule(target("tcp", Protocol.TCP, 5_000, 2_000));
        scheduler.schedule(target("udp", Protocol.UDP, 5_000, 2_000));
        scheduler.schedule(target("icmp", Protocol.ICMP, 5_000, 2_000));

        timer.advance(Duration.ofMillis(20_500));

        for (String id : List.of("tcp", "udp", "icmp")) {
            assertThat(engine.startMillis(id)).as(id).containsExactly(0L, 5_000L, 10_000L, 15_000L, 20_000L);
        }
        assertThat(listener.of("tcp")).hasSize(4);
        assertThat(listener.of("udp")).hasSize(5);
    }

    @Test
    void l4SlotIsSkippedAndCountedWhileThePreviousProbeStillRuns() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.TIMEOUT, Duration.ofMillis(1_500)));
        scheduler(engine, 100, 0).schedule(target("slow", Protocol.TCP, 1_000, 1_000));

        timer.advance(Duration.ofMillis(4_100));

        assertThat(engine.startMillis("slow")).containsExactly(0L, 2_000L, 4_000L);
        assertThat(listener.skips(SkipReason.PREVIOUS_STILL_RUNNING)).isEqualTo(2);
    }

    @Test
    void l4SlotIsSkippedAndCountedWhenTheInFlightBoundIsReached() {
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> null);
        ProbeScheduler scheduler = scheduler(engine, 2, 0);
        scheduler.schedule(target("a", Protocol.TCP, 1_000, 1_000));
        scheduler.schedule(target("b", Protocol.TCP, 1_000, 1_000));
        scheduler.schedule(target("c", Protocol.TCP, 1_000, 1_000));

        timer.advance(Duration.ZERO);

        assertThat(engine.starts()).extracting(ScriptedEngine.Start::targetId).containsExactly("a", "b");
        assertThat(scheduler.inFlight()).isEqualTo(2);
        assertThat(listener.skips(SkipReason.IN_FLIGHT_LIMIT)).isEqualTo(1);

        engine.completeAll(Outcome.SUCCESS);
        assertThat(scheduler.inFlight()).isZero();
        scheduler.remove("a");
        timer.advance(Duration.ofMillis(1_000));
        assertThat(engine.startMillis("b")).containsExactly(0L, 1_000L);
        assertThat(engine.startMillis("c")).containsExactly(1_000L);
        assertThat(listener.skips(SkipReason.IN_FLIGHT_LIMIT)).isEqualTo(1);
    }

    @Test
    void l7ProbeWaitsForAFreeSlotAndItsLagShowsTheWait() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofMillis(300)));
        ProbeScheduler scheduler = scheduler(engine, 1, 0);
        scheduler.schedule(target("first", Protocol.HTTP, 5_000, 2_000));
        scheduler.schedule(target("second", Protocol.HTTP, 5_000, 2_000));

        timer.advance(Duration.ofMillis(700));

        assertThat(engine.startMillis("first")).containsExactly(0L);
        assertThat(engine.startMillis("second")).containsExactly(300L);
        assertThat(listener.delayed.get()).isEqualTo(1);
        assertThat(listener.of("first").get(0).schedulingLagMicros()).isZero();
        assertThat(listener.of("second").get(0).schedulingLagMicros()).isEqualTo(300_000);
        assertThat(scheduler.inFlight()).isZero();
    }

    @Test
    void lateTimerShowsAsLagAndMissedSlotsAreDroppedNotBunched() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ZERO));
        scheduler(engine, 10, 0).schedule(target("tcp", Protocol.TCP, 1_000, 500));
        timer.advance(Duration.ZERO);

        timer.stall(Duration.ofMillis(2_500));   // the process was frozen: nothing fired for 2.5 s
        timer.advance(Duration.ofMillis(600));

        assertThat(engine.startMillis("tcp")).containsExactly(0L, 2_500L, 3_000L);
        assertThat(listener.of("tcp").get(1).schedulingLagMicros()).isEqualTo(1_500_000);
        assertThat(listener.of("tcp").get(2).schedulingLagMicros()).isZero();
        assertThat(listener.skips(SkipReason.MISSED_SLOT)).isEqualTo(1);
    }

    @Test
    void firstStartsSpreadUniformlyOverTheJitterWindow() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ZERO));
        Random random = new Random(42);
        ProbeScheduler scheduler = new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer),
                random::nextDouble, 10_000, 0.1);
        IntStream.range(0, 1_000).forEach(i -> scheduler.schedule(target("t" + i, Protocol.TCP, 10_000, 2_000)));

        timer.advance(Duration.ofMillis(9_999));

        List<Long> firsts = engine.starts().stream().map(ScriptedEngine.Start::atMillis).toList();
        assertThat(firsts).hasSize(1_000).allSatisfy(ms -> assertThat(ms).isBetween(0L, 1_000L));
        // uniform: each tenth of the window gets about a tenth of the targets
        for (int bucket = 0; bucket < 10; bucket++) {
            long from = bucket * 100L;
            long inBucket = firsts.stream().filter(ms -> ms >= from && ms < from + 100).count();
            assertThat(inBucket).as("starts in [%d, %d) ms", from, from + 100).isBetween(60L, 140L);
        }
    }

    @Test
    void thresholdOnlyChangeKeepsTheScheduleAndProbeChangeStartsANewGeneration() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofMillis(10)));
        ProbeScheduler scheduler = scheduler(engine, 10, 0);
        TargetSpec original = target("t", Protocol.TCP, 1_000, 500);
        scheduler.schedule(original);
        timer.advance(Duration.ofMillis(1_500));

        scheduler.schedule(original.withThresholds(5, 7));
        timer.advance(Duration.ofMillis(1_000));
        assertThat(engine.startMillis("t")).containsExactly(0L, 1_000L, 2_000L);
        assertThat(listener.of("t").get(2).target().healthyThreshold()).isEqualTo(5);

        TargetSpec moved = new TargetSpec("t", "g", "127.0.0.2", 80, Protocol.TCP, 1_000, 500, 5, 7, true, 10,
                null, null, null, null, null, null, 1);
        scheduler.schedule(moved);
        timer.advance(Duration.ofMillis(2_100));

        List<CompletedProbe> results = listener.of("t");
        assertThat(results.get(0).generation()).isEqualTo(ProbeFingerprint.of(original));
        assertThat(results.get(results.size() - 1).generation()).isEqualTo(ProbeFingerprint.of(moved))
                .isNotEqualTo(ProbeFingerprint.of(original));
        assertThat(engine.starts().stream().filter(s -> s.atMillis() >= 2_500).map(s -> s.spec().address()))
                .containsOnly("127.0.0.2");
        assertThat(timer.pending()).isEqualTo(1);
    }

    @Test
    void onlyTheFirstThresholdManyVerdictsOfARunMayDecide() {
        // healthy after 2 successes, unhealthy after 3 failures; an INCONCLUSIVE verdict ends a run and never decides
        List<Outcome> script = List.of(
                Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS,
                Outcome.TIMEOUT, Outcome.CONNECTION_REFUSED, Outcome.TIMEOUT, Outcome.TIMEOUT, Outcome.TIMEOUT,
                Outcome.INCONCLUSIVE, Outcome.TIMEOUT, Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS);
        java.util.Iterator<Outcome> next = script.iterator();
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> new Answer(next.next(), Duration.ofMillis(5)));
        scheduler(engine, 10, 0).schedule(target("t", Protocol.TCP, 1_000, 500).withThresholds(2, 3));

        timer.advance(Duration.ofMillis(1_000L * (script.size() - 1) + 500));

        assertThat(listener.of("t")).extracting(p -> p.report().outcome()).containsExactlyElementsOf(script);
        assertThat(listener.of("t")).extracting(CompletedProbe::mayDecide).containsExactly(
                true, true, false, false,
                true, true, true, false, false,
                false, true, true, true, false);
    }

    @Test
    void aRunNeverWrapsAndAVerdictOfTheOtherKindStartsANewOne() {
        assertThat(ScheduledTarget.runAfter(Integer.MAX_VALUE, true, Outcome.SUCCESS)).isEqualTo(Integer.MAX_VALUE);
        assertThat(ScheduledTarget.runAfter(Integer.MAX_VALUE, true, Outcome.TIMEOUT)).isEqualTo(1);
        assertThat(ScheduledTarget.runAfter(7, false, Outcome.INCONCLUSIVE)).isZero();
        assertThat(ScheduledTarget.runAfter(0, false, Outcome.SUCCESS)).isEqualTo(1);
        assertThat(ScheduledTarget.runAfter(0, true, Outcome.TIMEOUT)).isEqualTo(1);
    }

    @Test
    void intervalChangeReschedulesOnTheNewInterval() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ZERO));
        ProbeScheduler scheduler = scheduler(engine, 10, 0);
        scheduler.schedule(target("t", Protocol.TCP, 1_000, 500));
        timer.advance(Duration.ofMillis(1_500));

        scheduler.schedule(target("t", Protocol.TCP, 3_000, 500));
        timer.advance(Duration.ofMillis(7_000));

        assertThat(engine.startMillis("t")).containsExactly(0L, 1_000L, 1_500L, 4_500L, 7_500L);
    }

    @Test
    void removedTargetIsNotProbedAgainAndItsRunningProbeIsNotReported() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofMillis(400)));
        ProbeScheduler scheduler = scheduler(engine, 10, 0);
        scheduler.schedule(target("gone", Protocol.HTTP, 1_000, 500));
        scheduler.schedule(target("kept", Protocol.TCP, 1_000, 500));
        timer.advance(Duration.ofMillis(100));

        scheduler.remove("gone");
        timer.advance(Duration.ofMillis(5_300));

        assertThat(engine.startMillis("gone")).containsExactly(0L);
        assertThat(listener.of("gone")).isEmpty();
        assertThat(listener.of("kept")).hasSize(6);
        assertThat(scheduler.targetIds()).containsExactly("kept");
        assertThat(scheduler.inFlight()).isZero();
    }

    @Test
    void cancelledWaiterGivesItsSlotToTheNextOne() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ofMillis(200)));
        ProbeScheduler scheduler = scheduler(engine, 1, 0);
        scheduler.schedule(target("a", Protocol.HTTP, 5_000, 1_000));
        scheduler.schedule(target("b", Protocol.HTTP, 5_000, 1_000));
        scheduler.schedule(target("c", Protocol.HTTP, 5_000, 1_000));
        timer.advance(Duration.ZERO);

        scheduler.remove("b");
        timer.advance(Duration.ofMillis(500));

        assertThat(engine.startMillis("b")).isEmpty();
        assertThat(engine.startMillis("c")).containsExactly(200L);
        assertThat(scheduler.inFlight()).isZero();
    }

    @Test
    @Timeout(30)
    void thousandsOfWaitersThatCompleteAtOnceDrainWithoutDeepRecursion() {
        // answers that are ready at once (e.g. BLOCKED_BY_POLICY) complete inside the drain that launched them
        ScriptedEngine engine = new ScriptedEngine(timer, spec -> spec.id().equals("slow")
                ? new Answer(Outcome.SUCCESS, Duration.ofMillis(100))
                : new Answer(Outcome.BLOCKED_BY_POLICY, Duration.ZERO));
        ProbeScheduler scheduler = scheduler(engine, 1, 0);
        scheduler.schedule(target("slow", Protocol.HTTP, 10_000, 1_000));
        timer.advance(Duration.ZERO);
        IntStream.range(0, 20_000).forEach(i -> scheduler.schedule(target("w" + i, Protocol.HTTP, 10_000, 1_000)));
        timer.advance(Duration.ZERO);
        assertThat(listener.delayed.get()).isEqualTo(20_000);

        timer.advance(Duration.ofMillis(100));

        assertThat(listener.completed).hasSize(20_001);
        assertThat(scheduler.inFlight()).isZero();
    }

    @Test
    void engineThatThrowsYieldsAnInconclusiveResultAndTheScheduleGoesOn() {
        ProbeEngine broken = new ProbeEngine() {
            @Override
            public CompletableFuture<ProbeReport> probe(TargetSpec target) {
                if (target.protocol() == Protocol.TCP) {
                    throw new NoClassDefFoundError("io/healthmesh/probe/Missing");
                }
                throw new IllegalStateException("boom");
            }

            @Override
            public void close() {
            }
        };
        ProbeScheduler scheduler = scheduler(broken, 10, 0);
        scheduler.schedule(target("t", Protocol.HTTP, 1_000, 500));
        scheduler.schedule(target("linkage", Protocol.TCP, 1_000, 500));

        timer.advance(Duration.ofMillis(2_500));

        assertThat(listener.of("t")).hasSize(3)
                .allSatisfy(p -> assertThat(p.report().outcome()).isEqualTo(Outcome.INCONCLUSIVE));
        assertThat(listener.of("linkage")).hasSize(3)
                .allSatisfy(p -> assertThat(p.report().outcome()).isEqualTo(Outcome.INCONCLUSIVE));
        assertThat(listener.skips(SkipReason.PREVIOUS_STILL_RUNNING)).isZero();
        assertThat(scheduler.inFlight()).isZero();
    }

    @Test
    void closeStopsEverySchedule() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ZERO));
        ProbeScheduler scheduler = scheduler(engine, 10, 0);
        scheduler.schedule(target("a", Protocol.TCP, 1_000, 500));
        scheduler.schedule(target("b", Protocol.HTTP, 1_000, 500));
        timer.advance(Duration.ofMillis(1_500));
        int before = engine.starts().size();

        scheduler.close();
        timer.advance(Duration.ofMillis(5_000));

        assertThat(engine.starts()).hasSize(before);
        assertThat(timer.pending()).isZero();
        assertThatThrownBy(() -> scheduler.schedule(target("c", Protocol.TCP, 1_000, 500)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rejectsBoundsOutsideTheirRange() {
        ScriptedEngine engine = new ScriptedEngine(timer, always(Outcome.SUCCESS, Duration.ZERO));
        assertThatThrownBy(() -> scheduler(engine, 0, 0.1)).hasMessage("maxInFlight: 0 (expected: >= 1)");
        assertThatThrownBy(() -> scheduler(engine, 1, 1.5)).hasMessage("jitterFraction: 1.5 (expected: 0..1)");
    }
}
