package io.healthmesh.prober.schedule;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.domain.Transition;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.WorkedExample;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each seed's worked example, with the product's own parameters (docs/PROFILES.md), through the real scheduler on a
 * manual clock and the aggregator's real state machine: a healthy backend starts hanging (every probe takes the
 * timeout), then answers again in 1 s. The windows are measured as the documents measure them.
 */
class ProfileWindowsTest {

    private final ManualTimer timer = new ManualTimer();
    private final RecordingListener listener = new RecordingListener();
    private volatile boolean up = true;

    static Stream<Arguments> examples() {
        List<Arguments> out = new ArrayList<>();
        for (TargetProfile profile : TargetProfile.values()) {
            for (WorkedExample example : ProfileTable.of(profile).examples()) {
                out.add(Arguments.of(profile, example));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("examples")
    void theDocumentsWorkedExampleComesOutAsWritten(TargetProfile profile, WorkedExample example) {
        TargetSpec spec = example.toSpec(profile, "t", "10.0.0.1", 80);
        ScriptedEngine engine = new ScriptedEngine(timer, s -> up
                ? new Answer(Outcome.SUCCESS, Duration.ofMillis(example.responseMs()))
                : new Answer(Outcome.TIMEOUT, Duration.ofMillis(s.timeoutMs())));
        new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0, 100, 0)
                .schedule(spec);
        long cycle = (long) spec.intervalMs() + spec.timeoutMs();

        timer.advance(Duration.ofMillis(cycle * 6 + 500));       // HEALTHY by now
        up = false;
        timer.advance(Duration.ofMillis(cycle * 8));
        up = true;
        timer.advance(Duration.ofMillis(cycle * 8));

        List<Flip> flips = replay(spec);
        assertThat(flips).extracting(Flip::to)
                .containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
        assertThat(flips.get(1).window()).as("to UNHEALTHY").isEqualTo(example.toUnhealthyMs());
        assertThat(flips.get(2).window()).as("to HEALTHY").isEqualTo(example.toHealthyMs());
    }

    @Test
    void clbKeepsANewTargetDetectingForIntervalTimesHealthyThreshold() {
        // 000 line 13: interval 2 s, healthy threshold 3 -> DETECTING for 6 s
        TargetSpec twoSeconds = ProfileTable.of(TargetProfile.TENCENT_CLB)
                .newSpec("t", "g", "10.0.0.1", 80, Protocol.TCP).withThresholds(3, 3).withTiming(2_000, 2_000);
        ScriptedEngine engine = new ScriptedEngine(timer, s -> new Answer(Outcome.SUCCESS, Duration.ZERO));
        new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0, 100, 0)
                .schedule(twoSeconds);
        timer.advance(Duration.ofSeconds(10));
        List<Flip> flips = replay(twoSeconds);
        assertThat(flips.get(0).to()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(flips.get(0).atMs()).as("DETECTING since 0").isEqualTo(6_000);
        assertThat(engine.startMillis("t")).startsWith(2_000L, 4_000L, 6_000L);
    }

    /** A status change, when it happened, and the window the document measures for it. */
    record Flip(HealthStatus to, long atMs, long window) {
    }

    /**
     * Feeds the recorded results in order to the state machine. The window of a flip runs from the first probe of
     * the streak that caused it: from its start at a fixed delay (the L7 formula), from its result at a fixed rate
     * (000's L4 formula {@code interval x (threshold - 1)}).
     */
    private List<Flip> replay(TargetSpec spec) {
        Thresholds thresholds = new Thresholds(spec.healthyThreshold(), spec.unhealthyThreshold());
        HealthStateMachine machine = HealthStateMachine.detecting(0);
        List<Flip> flips = new ArrayList<>();
        long streakFrom = -1;
        Boolean last = null;
        for (CompletedProbe p : listener.of(spec.id())) {
            boolean ok = p.report().outcome() == Outcome.SUCCESS;
            long end = p.startedAtMs() + p.report().latencyMicros() / 1000;
            if (last == null || last != ok) {
                streakFrom = spec.fixedDelay() ? p.startedAtMs() : end;
                last = ok;
            }
            Transition t = machine.observe(ok, thresholds);
            machine = t.state();
            if (t instanceof Transition.Changed c) {
                flips.add(new Flip(c.to(), end, end - streakFrom));
            }
        }
        return flips;
    }
}
