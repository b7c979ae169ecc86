package io.healthmesh.prober.schedule;

import io.healthmesh.aggregator.domain.HealthStateMachine;
import io.healthmesh.aggregator.domain.Thresholds;
import io.healthmesh.aggregator.domain.Transition;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.schedule.ScriptedEngine.Answer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One target through the real scheduler on its own manual clock, its results through the aggregator's real state
 * machine: the drive loop of the detection-window tests. The backend is up (every probe succeeds in the given
 * response time) or down (every probe takes its whole timeout); each probe sees the backend as it is when the probe
 * starts. The scheduler runs without jitter, so every run of a spec is the same.
 */
final class WindowRun {

    final ManualTimer timer = new ManualTimer();
    final RecordingListener listener = new RecordingListener();
    final ScriptedEngine engine;
    private final TargetSpec spec;
    private volatile boolean up = true;

    /** Schedules {@code spec} at the clock's 0 against a backend that is up and answers in {@code response}. */
    WindowRun(TargetSpec spec, Duration response) {
        this.spec = spec;
        engine = new ScriptedEngine(timer, s -> up
                ? new Answer(Outcome.SUCCESS, response)
                : new Answer(Outcome.TIMEOUT, Duration.ofMillis(s.timeoutMs())));
        new ProbeScheduler(engine, listener, timer, timer, new TickerClock(timer), () -> 0.0, 100, 0)
                .schedule(spec);
    }

    /** Puts the backend up or down from now on: the next probe to start sees it. */
    void backendUp(boolean up) {
        this.up = up;
    }

    long nowMs() {
        return timer.nowMillis();
    }

    void advance(long ms) {
        timer.advance(Duration.ofMillis(ms));
    }

    void advanceTo(long ms) {
        timer.advance(Duration.ofMillis(ms - timer.nowMillis()));
    }

    /** When the latest probe started; the next one starts one steady (or down) cycle after it. */
    long lastStart() {
        List<Long> starts = engine.startMillis(spec.id());
        return starts.get(starts.size() - 1);
    }

    /**
     * The results so far, in order, through the aggregator's state machine. A flip is dated by the completion of the
     * result that made it; its window runs from the first probe of the streak that caused it: from that probe's
     * start at a fixed delay (the L7 formula), from its result at a fixed rate (the L4 formula
     * {@code interval x (threshold - 1)} counts between results).
     */
    List<Flip> flips() {
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

    /** A status change, when it happened, and the window the documents measure for it. */
    record Flip(HealthStatus to, long atMs, long window) {
    }
}
