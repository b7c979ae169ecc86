package io.healthmesh.bench.load;

import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.CapacityPhase;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.bench.run.ResultTap;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.farm.TargetFarm;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/** The heap and capacity phase: many targets at a long interval, the workers' heap per target. */
public final class CapacityStep {

    @Option(names = "--capacity-targets", description = "Targets of the heap and capacity phase (default 100000, short 0 = skipped).")
    Integer capacityTargets;
    @Option(names = "--capacity-interval-ms", defaultValue = "10000", description = "Interval of the capacity phase.")
    int capacityIntervalMs;

    /** Fills in the mode's default. */
    public void defaults(boolean isShort) {
        capacityTargets = Flags.orDefault(capacityTargets, isShort, 100_000, 0);
    }

    /** Whether the phase runs. */
    public boolean enabled() {
        return capacityTargets > 0;
    }

    /** The phase's targets over the farm's TCP listeners. */
    public List<TargetSpec> specs(TargetFarm farm) {
        return FarmSpecs.over(farm.targets(Protocol.TCP), capacityTargets, "cap", capacityIntervalMs, 1_000, 3, 3);
    }

    /**
     * Runs the phase on {@code specs} with a window of at least {@code windowSeconds} (two intervals when longer);
     * closes {@code aggregator}. A failure is reported, not thrown.
     */
    public void run(BenchReport report, ChildJvm prober, ChildJvm aggregator, BenchStack stack, TargetLoader loader,
                    ResultTap results, TargetFarm farm, List<TargetSpec> specs, int windowSeconds) {
        try {
            report.capacity(CapacityPhase.run(prober, aggregator, Workers.AGGREGATOR_GROUP, stack.admin(),
                    stack.topics().targets(), loader, results, farm.targets(Protocol.TCP), specs, capacityIntervalMs,
                    Duration.ofSeconds(Math.max(windowSeconds, 2L * capacityIntervalMs / 1000))));
        } catch (Exception e) {
            report.failed(4, "capacity", e);
        }
    }
}
