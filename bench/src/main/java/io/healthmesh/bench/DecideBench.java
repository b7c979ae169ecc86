package io.healthmesh.bench;

import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.DecidePhase;
import io.healthmesh.bench.run.DecisionTimes;
import io.healthmesh.bench.run.DecisionWatch;
import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.run.Readiness;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.WorkerSettings;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.FreePorts;
import io.healthmesh.testkit.farm.FarmLayout;
import io.healthmesh.testkit.farm.TargetFarm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * A whole fleet of healthy loopback TCP targets going from DETECTING to decided with a prober and an aggregator
 * running together (see {@link DecidePhase}): how many targets were decided within three intervals of their first
 * probe, the distribution of first probe -> decided, how many were never decided within the run, and the
 * aggregator's lag meanwhile. Prints a markdown section.
 */
@Command(name = "decide", mixinStandardHelpOptions = true,
        description = "A prober and an aggregator on a fleet: every target DETECTING -> decided within three intervals"
                + " of its first probe?")
public final class DecideBench implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(DecideBench.class);
    private static final String PREFIX = "d";
    private static final String GROUP = "bench-decide-aggregator";
    /** The bound of the goal: decided within this many intervals of the first probe. */
    static final int INTERVALS = 3;
    private static final int TIMEOUT_MS = 2_000;

    @Option(names = "--targets", defaultValue = "1000000", description = "Targets in the fleet.")
    int targets;
    @Option(names = "--interval-s", defaultValue = "300", description = "Every target's probe interval (s).")
    int intervalSeconds;
    @Option(names = "--patience-s", defaultValue = "1500", description = "How long the prober and the aggregator may"
            + " run before the targets not decided yet are reported as such (s).")
    int patienceSeconds;
    @Option(names = "--listeners", defaultValue = "16", description = "Loopback TCP listeners the targets share.")
    int listeners;
    @Option(names = "--healthy-threshold", description = "Successes that make a target HEALTHY (default: a"
            + " definition's default, " + TargetSpec.DEFAULT_HEALTHY_THRESHOLD + ").")
    int healthyThreshold = TargetSpec.DEFAULT_HEALTHY_THRESHOLD;
    @Option(names = "--prober-heap", defaultValue = "2g", description = "-Xmx and -Xms of the prober JVM.")
    String proberHeap;
    @Option(names = "--aggregator-heap", defaultValue = "2g", description = "-Xmx and -Xms of the aggregator JVM.")
    String aggregatorHeap;
    @Option(names = "--aggregator-setting", paramLabel = "KEY=VALUE", description = "A setting for the aggregator"
            + " beside the bench's own (repeatable), e.g. kafka.max.task.idle.ms=1000 to try a Kafka Streams option.")
    Map<String, String> aggregatorSettings = new LinkedHashMap<>();
    @Option(names = "--out", description = "Also write the report to this file.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (targets < 1 || targets > 2_000_000 || intervalSeconds < 5 || intervalSeconds > 3_600
                || listeners < 1 || listeners > FarmLayout.MAX_LISTENERS || healthyThreshold < 1
                || healthyThreshold > 10 || patienceSeconds < intervalSeconds || patienceSeconds > 7_200) {
            throw new IllegalArgumentException("expected: --targets 1..2000000, --interval-s 5..3600, --listeners 1.."
                    + FarmLayout.MAX_LISTENERS + ", --healthy-threshold 1..10, --patience-s from the interval to 7200");
        }
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Path work = Files.createTempDirectory("healthmesh-decide-");
        DecidePhase.Outcome outcome;
        try (BenchStack stack = BenchStack.start();
             TargetFarm farm = TargetFarm.start(FarmLayout.of(listeners, 0, 1, 0), 2);
             TargetLoader loader = new TargetLoader(stack)) {
            List<TargetSpec> specs = FarmSpecs.over(farm.targets(), targets, PREFIX, intervalSeconds * 1000,
                    TIMEOUT_MS, healthyThreshold, TargetSpec.DEFAULT_UNHEALTHY_THRESHOLD);
            try (DecisionWatch watch = new DecisionWatch(stack, PREFIX, targets)) {
                int[] ports = FreePorts.pick(InetAddress.getLoopbackAddress(), 2);
                outcome = DecidePhase.run(stack, watch, targets, intervalSeconds * 1000L, INTERVALS,
                        Duration.ofSeconds(patienceSeconds), GROUP,
                        () -> ChildJvm.start("aggregator", "aggregator",
                                aggregatorSettings(WorkerSettings.aggregator(stack, GROUP,
                                        work.resolve("aggregator-state"), ports[0])),
                                aggregatorHeap, null, work),
                        () -> ChildJvm.start("prober", "prober", WorkerSettings.fleetProber(stack, ports[1]),
                                proberHeap, null, work),
                        List.of(Readiness.of(ports[0]), Readiness.of(ports[1])),
                        () -> loader.applyInBatches(specs));
            }
        }
        String report = report(started, outcome);
        System.out.println(report);
        if (out != null) {
            Files.writeString(out, report);
        }
        LOG.info("worker logs in {}", work);
        DecisionTimes.Summary s = outcome.summary();
        return s.decidedInBound() == targets ? 0 : 1;
    }

    /** The bench's aggregator settings with {@code --aggregator-setting}s over them. */
    private Map<String, String> aggregatorSettings(Map<String, String> bench) {
        Map<String, String> settings = new LinkedHashMap<>(bench);
        settings.putAll(aggregatorSettings);
        return settings;
    }

    private String report(Instant started, DecidePhase.Outcome o) {
        DecisionTimes.Summary s = o.summary();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "### %,d TCP targets DETECTING -> decided at a %d s interval, run of %s%n%n",
                        targets, intervalSeconds, started))
                .append(String.format(Locale.ROOT, "- command: `java -jar bench/target/bench.jar decide --targets %d"
                                + " --interval-s %d --patience-s %d --listeners %d --healthy-threshold %d"
                                + " --prober-heap %s --aggregator-heap %s%s`%n", targets, intervalSeconds,
                        patienceSeconds, listeners, healthyThreshold, proberHeap, aggregatorHeap,
                        aggregatorSettings.entrySet().stream().map(e -> " --aggregator-setting " + e.getKey() + "="
                                + e.getValue()).collect(Collectors.joining())))
                .append("- machine: ").append(Machine.describe()).append("\n")
                .append(String.format(Locale.ROOT, "- definitions: healthy threshold %d (first probe -> decided is at"
                                + " least %d intervals), timeout %d ms, %d loopback listeners, all up%n",
                        healthyThreshold, healthyThreshold - 1, TIMEOUT_MS, listeners))
                .append(String.format(Locale.ROOT, "- the prober and the aggregator ready (`/readyz` 200 for 10 s)"
                                + " %.1f s after their JVMs started; then the whole fleet applied at once, written and"
                                + " acknowledged in %.1f s%n", o.startSeconds(), o.applySeconds()))
                .append(String.format(Locale.ROOT, "- ended %.0f s after the apply began: %s; every definition read by"
                                + " the prober after %.1f s, by the aggregator after %.1f s%n", o.seconds(),
                        o.ending(), o.proberReadSeconds(), o.aggregatorReadSeconds()))
                .append(String.format(Locale.ROOT, "- the aggregator's largest lag on the results: %,d records, %d s"
                                + " after the apply began; RSS at the end: prober %d MiB, aggregator %d MiB%n%n",
                        o.maxResultsLag(), o.maxResultsLagSeconds(), o.proberRssBytes() >> 20,
                        o.aggregatorRssBytes() >> 20))
                .append("| targets | probed | decided (HEALTHY / UNHEALTHY) | decided within ").append(INTERVALS)
                .append(" intervals of the first probe | first probe -> decided: p50 / p99 / max (s)")
                .append(" | probed, not decided | never probed |\n|---|---|---|---|---|---|---|\n")
                .append(String.format(Locale.ROOT, "| %,d | %,d | %,d (%,d / %,d) | **%,d** (%.2f %%, bound %d s) |"
                                + " %s / %s / %s | %,d | %,d |%n%n", s.targets(), s.probed(), s.decided(),
                        s.healthy(), s.unhealthy(), s.decidedInBound(), 100.0 * s.decidedInBound() / s.targets(),
                        s.boundMs() / 1000, seconds(s.p50Ms()), seconds(s.p99Ms()), seconds(s.maxMs()),
                        s.probedUndecided(), s.neverProbed()))
                .append("| after the apply began (s) | probed | decided | aggregator behind: results | aggregator behind:"
                        + " definitions | prober behind: definitions | load 1/5/15 |\n|---|---|---|---|---|---|---|\n");
        for (DecidePhase.Sample p : o.samples()) {
            sb.append(String.format(Locale.ROOT, "| %d | %,d | %,d | %,d | %,d | %,d | %s |%n", p.elapsedSeconds(),
                    p.probed(), p.decided(), p.aggregatorResultsLag(), p.aggregatorDefinitionsLag(),
                    p.proberDefinitionsLag(), p.load()));
        }
        sb.append(String.format(Locale.ROOT, "%nThe aggregator rejected %,d records of %,d of the fleet's targets (the"
                + " rejected topic). A result it reads before its target's definition is held until the definition"
                + " is read, then applied; its count at the end (`%s`): %s.%n", s.rejected(), s.rejectedTargets(),
                DecidePhase.HELD_METRIC, String.join("; ", o.heldResults())));
        if (s.decidedUnprobed() > 0) {
            sb.append(String.format(Locale.ROOT, "%n%,d targets were decided without a result seen by the bench"
                    + " (not in the distribution).%n", s.decidedUnprobed()));
        }
        return sb.toString();
    }

    private static String seconds(long millis) {
        return millis < 0 ? "-" : String.format(Locale.ROOT, "%.1f", millis / 1e3);
    }
}
