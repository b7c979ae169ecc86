package io.healthmesh.bench.load;

import io.healthmesh.bench.run.AggregatorThroughputPhase;
import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.farm.TargetFarm;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregator-throughput phase: how fast one and then two aggregator instances catch up with a backlog of
 * pre-produced results. Its flags, their defaults per mode, and the step itself.
 */
public final class CatchUpStep {

    @Option(names = "--aggregator-results", description = "Results pre-produced for the aggregator-throughput phase (default 300000, short 0 = skipped).")
    Long aggregatorResults;
    @Option(names = "--aggregator-targets", defaultValue = "10000", description = "Targets of the aggregator-"
            + "throughput phase when the capacity phase is skipped (otherwise the capacity phase's targets).")
    int aggregatorTargets;
    @Option(names = "--aggregator-instances", split = ",", description = "Instance counts of the aggregator-"
            + "throughput phase, run one after the other with --aggregator-results each (default 1,2).")
    List<Integer> aggregatorInstances;
    @Option(names = "--aggregator-group-size", defaultValue = "" + FarmSpecs.GROUP_SIZE, description = "Targets per "
            + "group in the aggregator-throughput phase when the capacity phase is skipped (100000 with "
            + "--aggregator-targets 100000: one huge group).")
    int aggregatorGroupSize;
    @Option(names = "--aggregator-stamp-ahead-ms", defaultValue = "0", description = "Stamp the aggregator phase's "
            + "results this far in the future, so that the aggregator takes each for fresh input (commit.on.change's "
            + "worst case); 0 = stamped when produced (default); at most 3600000, the broker's default bound on "
            + "future timestamps.")
    long aggregatorStampAheadMs;

    /** Fills in the mode's defaults. */
    public void defaults(boolean isShort) {
        aggregatorResults = aggregatorResults != null ? aggregatorResults : isShort ? 0L : 300_000L;
        aggregatorInstances = aggregatorInstances != null ? aggregatorInstances : List.of(1, 2);
    }

    /** Whether the phase runs. */
    public boolean enabled() {
        return aggregatorResults > 0;
    }

    /** The phase's own targets, applied, for a run without the capacity phase. */
    public List<TargetSpec> applySmallSet(TargetLoader loader, TargetFarm farm) {
        List<TargetSpec> specs = FarmSpecs.over(farm.targets(Protocol.TCP), aggregatorTargets, "agg", 10_000, 1_000, 3,
                3, aggregatorGroupSize);
        loader.apply(specs);
        return specs;
    }

    /** Runs the phase once per instance count on {@code specs}; a failed count is reported and the next one runs. */
    public void run(BenchReport report, BenchStack stack, List<TargetSpec> specs, Path work, Workers workers) {
        List<AggregatorThroughputPhase.Figure> figures = new ArrayList<>();
        for (int instances : aggregatorInstances) {
            try {
                AggregatorThroughputPhase.Figure f = AggregatorThroughputPhase.run(stack, specs, aggregatorResults,
                        Workers.AGGREGATOR_GROUP, instances, aggregatorStampAheadMs, n -> {
                            try {
                                // each instance its own state directory; the first reuses the earlier phases' state
                                return workers.startAggregator(stack, work, "aggregator-catchup-" + instances + "-" + n,
                                        n == 1 ? "aggregator-state" : "aggregator-state-" + n, true);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
                if (figures.isEmpty() && instances == 1) {
                    report.aggregator(f, specs);
                }
                figures.add(f);
            } catch (Exception e) {
                report.failed(5, "aggregator throughput with " + instances + " instance(s)", e);
            }
        }
        if (!figures.isEmpty()) {
            report.aggregatorInstances(figures, specs.size(), workers.aggregatorStreamThreads());
        }
    }
}
