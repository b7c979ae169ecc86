package io.healthmesh.bench.load;

import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.DetectionPhase;
import io.healthmesh.bench.run.GroupLag;
import io.healthmesh.bench.run.JitQuiet;
import io.healthmesh.bench.run.KeepingUp;
import io.healthmesh.bench.run.PhaseTimes;
import io.healthmesh.bench.run.ResultTap;
import io.healthmesh.bench.run.StateTap;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.testkit.farm.TargetFarm;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The detection phase: flipped targets, timed from the farm's switch to the state event, with HAProxy beside
 * healthmesh. Its flags, their defaults per mode, and the step itself.
 */
public final class DetectionStep {

    @Option(names = "--detect-targets", description = "Flipped targets per protocol (default 200, short 0; 0 skips "
            + "the phase and the aggregator it needs).")
    public Integer detectTargets;
    @Option(names = "--detect-interval-ms", defaultValue = "1000", description = "Interval of the detection phase.")
    int detectIntervalMs;
    @Option(names = "--detect-rehearsal", negatable = true, description = "Flip the detection targets once, "
            + "unmeasured, before the measured round, so that the paths a state change takes are compiled (default "
            + "on; off in the short mode, whose two minutes it does not fit).")
    public Boolean detectRehearsal;
    @Option(names = "--detect-jit-ms-per-s", description = "Before the detection phase's flips, wait until the JIT "
            + "compilers of the driver, prober and aggregator JVMs together use at most this many ms of CPU per second "
            + "(3 samples in a row); 0 waits for none (default 50; 0 in the short mode).")
    public Double detectJitMillis;
    @Option(names = "--detect-jit-wait-max-s", defaultValue = "180", description = "Upper bound of that wait; the "
            + "flips start after it whatever the compilers do, and the report says so.")
    int detectJitWaitMaxSeconds;
    @Option(names = "--threshold", defaultValue = "3", description = "Healthy and unhealthy thresholds of the detection phase.")
    int threshold;

    private boolean shortMode;

    /** Fills in the mode's defaults and refuses a flag out of range. */
    public void defaults(boolean isShort) {
        this.shortMode = isShort;
        // the short mode gives its time to the TCP warm-up instead of the detection phase: a shorter warm-up does not
        // settle, and detection on a cold aggregator measures its start, not detection
        detectTargets = Flags.orDefault(detectTargets, isShort, 200, 0);
        // the detection phase measures a checker that has been running (docs/BENCHMARKS.md, "What is measured, and
        // how": otherwise the compilers hold most of the cores during the flips); the short mode, which measures
        // detection only when asked, has no time for the minute that costs
        detectRehearsal = detectRehearsal != null ? detectRehearsal : !isShort;
        detectJitMillis = detectJitMillis != null ? detectJitMillis : isShort ? 0.0 : 50.0;
        // refused here, by name, rather than by a child JVM's start or a gate that never waits
        Flags.inRange("--detect-jit-ms-per-s", detectJitMillis, 0, 2_000);
        Flags.inRange("--detect-jit-wait-max-s", detectJitWaitMaxSeconds, 1, 3_600);
    }

    /** Whether the phase runs (and the aggregator it needs is started). */
    public boolean enabled() {
        return detectTargets > 0;
    }

    /**
     * Runs the phase on a fresh aggregator; {@code whileStarting} (or {@code null}) runs while the aggregator
     * catches up in the short mode. A failure is reported, not thrown.
     */
    public void run(BenchReport report, BenchStack stack, TargetFarm farm, TargetLoader loader, ResultTap results,
                    StateTap states, Path work, ChildJvm prober, ChildJvm aggregator, PhaseTimes times,
                    Runnable whileStarting, long commitIntervalMs) throws InterruptedException {
        try {
            DetectionPhase.Result r = DetectionPhase.run(farm, loader, results, states, work.resolve("haproxy-detect"),
                    detectTargets, detectIntervalMs, threshold, Duration.ofMillis(
                            Math.max(4_000L, (long) detectIntervalMs * (threshold + 2))),
                    Duration.ofSeconds(shortMode ? 4 : 15), detectRehearsal, times, shortMode
                            ? new DetectionPhase.Overlap(whileStarting, true)
                            : DetectionPhase.Overlap.NONE,
                    detectJitMillis <= 0 ? null : new DetectionPhase.JitGate(JitQuiet.of(List.of(
                            JitQuiet.self("driver"), new JitQuiet.Jvm("prober", prober::compilerCpuMillis),
                            new JitQuiet.Jvm("aggregator", aggregator::compilerCpuMillis))), detectJitMillis, 3,
                            Duration.ofSeconds(detectJitWaitMaxSeconds)),
                    new DetectionPhase.AggregatorGate(KeepingUp.of(() -> GroupLag.lag(stack.admin(),
                            Workers.AGGREGATOR_GROUP, stack.topics().probeResults())),
                            Duration.ofSeconds(shortMode ? 20 : 120)));
            report.latency(r.latencyMicros(), r.toResultMicros(), r.toAggregatorMicros(), r.toConsumerMicros(),
                    commitIntervalMs);
            report.detection(r);
        } catch (IOException | RuntimeException e) {
            report.failed(3, "detection", e);
        }
    }
}
