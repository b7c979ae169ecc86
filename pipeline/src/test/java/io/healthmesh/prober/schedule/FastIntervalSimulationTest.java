package io.healthmesh.prober.schedule;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.domain.Transition;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code fastIntervalMs} buys, as a deterministic simulation through the real scheduler and the aggregator's
 * real state machine on a manual clock (docs/BENCHMARKS.md, "State-dependent intervals"): one TCP target over 24
 * simulated hours with 48 outages of 3 minutes at seeded random instants, probed (a) at a fixed interval and (b) at a
 * longer interval with a fast one, the fixed interval chosen so that both send the same number of probes. Prints
 * probes per hour and the detection delay (failure to UNHEALTHY result) of each; asserts only what the schedule
 * guarantees: (b) probes no more than (a) and detects every outage within its computed bound. Two more rows give the
 * plain 10 s interval and the fixed interval that detects about as fast as (b), with its probe rate.
 */
class FastIntervalSimulationTest {

    private static final long HOUR = 3_600_000;
    private static final long DAY = 24 * HOUR;
    private static final int OUTAGES = 48;
    private static final long OUTAGE_MS = 180_000;

    @Test
    void fastIntervalAgainstAFixedIntervalAtTheSameProbeRate() {
        TargetSpec adaptive = TargetSpec.of("t", "g", "10.0.0.1", 80, Protocol.TCP).withTiming(10_000, 1_000)
                .withThresholds(3, 3).withIntervals(2_000, null);
        Result b = simulate(adaptive);
        // the fixed interval whose probe count matches (b)'s: the day divided by (b)'s probes
        int fixedMs = (int) (DAY / b.probes);
        Result a = simulate(adaptive.withIntervals(null, null).withTiming(fixedMs, 1_000));
        Result c = simulate(adaptive.withIntervals(null, null));
        Result d = simulate(adaptive.withIntervals(null, null).withTiming(3_500, 1_000));
        System.out.printf("%-46s %10s %12s %12s %12s%n", "schedule", "probes/h", "mean detect", "p50", "max");
        print("fixed " + fixedMs + " ms (same probes as below)", a);
        print("10 s, fastIntervalMs 2 s", b);
        print("fixed 10 s (no fast interval)", c);
        print("fixed 3.5 s (about (b)'s detection)", d);

        assertThat(b.probes).isLessThanOrEqualTo(a.probes);
        assertThat(b.delays).hasSize(OUTAGES);
        // the bound of BEHAVIOUR.md 5b: I + F x (u - 1) + T = 10 + 4 + 1 s
        assertThat(b.delays).allSatisfy(delay -> assertThat(delay).isLessThanOrEqualTo(15_000L));
    }

    private static void print(String name, Result r) {
        List<Long> sorted = r.delays.stream().sorted().toList();
        double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
        System.out.printf("%-46s %10.1f %10.2f s %10.2f s %10.2f s%n", name, r.probes / 24.0, mean / 1000,
                sorted.get(sorted.size() / 2) / 1000.0, sorted.get(sorted.size() - 1) / 1000.0);
    }

    private record Result(long probes, List<Long> delays) {
    }

    /** One day of the target under {@code spec}: the same seeded outages whatever the schedule. */
    private static Result simulate(TargetSpec spec) {
        Random random = new Random(49);
        List<long[]> outages = new ArrayList<>();
        for (int i = 0; i < OUTAGES; i++) {
            long slot = DAY / OUTAGES;
            long start = i * slot + 60_000 + (long) (random.nextDouble() * (slot - OUTAGE_MS - 120_000));
            outages.add(new long[] {start, start + OUTAGE_MS});
        }
        ManualTimer timer = new ManualTimer();
        RecordingListener listener = new RecordingListener();
        ScriptedEngine engine = new ScriptedEngine(timer, s -> {
            long now = timer.nowMillis();
            boolean down = outages.stream().anyMatch(o -> now >= o[0] && now < o[1]);
            return down ? new Answer(Outcome.TIMEOUT, Duration.ofMillis(s.timeoutMs()))
                    : new Answer(Outcome.SUCCESS, Duration.ofMillis(20));
        });
        new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.37, 100, 1.0)
                .schedule(spec);
        timer.advance(Duration.ofMillis(DAY));

        Thresholds thresholds = new Thresholds(spec.healthyThreshold(), spec.unhealthyThreshold());
        HealthStateMachine machine = HealthStateMachine.detecting(0);
        List<Long> delays = new ArrayList<>();
        int next = 0;
        for (CompletedProbe p : listener.of(spec.id())) {
            Transition t = machine.observe(p.report().outcome() == Outcome.SUCCESS, thresholds);
            machine = t.state();
            if (t instanceof Transition.Changed c && c.to() == HealthStatus.UNHEALTHY) {
                long decidedAt = p.startedAtMs() + p.report().latencyMicros() / 1000;
                while (next < outages.size() && outages.get(next)[1] < decidedAt) {
                    next++;
                }
                delays.add(decidedAt - outages.get(next)[0]);
                next++;
            }
        }
        return new Result(listener.of(spec.id()).size(), delays);
    }
}
