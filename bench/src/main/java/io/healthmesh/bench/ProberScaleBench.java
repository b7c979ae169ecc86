package io.healthmesh.bench;

import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.run.ProberScalePhase;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.WorkerSettings;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.farm.FarmLayout;
import io.healthmesh.testkit.farm.TargetFarm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

/**
 * One prober holding a whole fleet of loopback TCP targets (see {@link ProberScalePhase}): how long it takes to own
 * and schedule them, to probe each once, and to probe each again after a restart; its RSS and heap per target.
 * Prints a markdown section.
 */
@Command(name = "prober-scale", mixinStandardHelpOptions = true,
        description = "One prober holding many targets: assignment, first probes, a restart, RSS and heap.")
public final class ProberScaleBench implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ProberScaleBench.class);
    private static final String PREFIX = "p";

    @Option(names = "--targets", defaultValue = "1000000", description = "Targets the prober holds.")
    int targets;
    @Option(names = "--interval-s", defaultValue = "300", description = "Every target's probe interval (s).")
    int intervalSeconds;
    @Option(names = "--patience-s", defaultValue = "1500", description = "How long each round (first start,"
            + " restart) may take before it is reported unfinished (s).")
    int patienceSeconds;
    @Option(names = "--listeners", defaultValue = "16", description = "Loopback TCP listeners the targets share.")
    int listeners;
    @Option(names = "--prober-heap", defaultValue = "2g", description = "-Xmx and -Xms of the prober JVM.")
    String heap;
    @Option(names = "--out", description = "Also write the report to this file.")
    Path out;
    @Option(names = "--prober-setting", description = "An extra prober setting, key=value (repeatable).")
    Map<String, String> extra = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (targets < 1 || targets > 2_000_000 || intervalSeconds < 10 || intervalSeconds > 3_600
                || listeners < 1 || listeners > FarmLayout.MAX_LISTENERS || patienceSeconds < intervalSeconds
                || patienceSeconds > 7_200) {
            throw new IllegalArgumentException("expected: --targets 1..2000000, --interval-s 10..3600, --listeners 1.."
                    + FarmLayout.MAX_LISTENERS + ", --patience-s from the interval to 7200");
        }
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Path work = Files.createTempDirectory("healthmesh-prober-scale-");
        List<ProberScalePhase.Start> starts;
        double loadSeconds;
        try (BenchStack stack = BenchStack.start();
             TargetFarm farm = TargetFarm.start(FarmLayout.of(listeners, 0, 1, 0), 2);
             TargetLoader loader = new TargetLoader(stack)) {
            List<TargetSpec> specs = FarmSpecs.over(farm.targets(), targets, PREFIX, intervalSeconds * 1000, 2_000,
                    2, 2);
            loadSeconds = loader.applyInBatches(specs);
            Map<String, String> settings = WorkerSettings.fleetProber(stack);
            settings.putAll(extra);
            int[] n = {0};
            starts = ProberScalePhase.run(stack, specs, WorkerSettings.PROBER_GROUP, PREFIX,
                    Duration.ofSeconds(patienceSeconds),
                    () -> ChildJvm.start("prober-" + ++n[0], "prober", settings, heap, null, work));
        }
        String report = report(started, loadSeconds, starts);
        System.out.println(report);
        if (out != null) {
            Files.writeString(out, report);
        }
        LOG.info("prober logs in {}", work);
        return starts.stream().allMatch(s -> s.probed() == targets) ? 0 : 1;
    }

    private String report(Instant started, double loadSeconds, List<ProberScalePhase.Start> starts) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "### One prober, %,d TCP targets at %d s, run of %s%n%n", targets,
                        intervalSeconds, started))
                .append(String.format(Locale.ROOT, "- command: `java -jar bench/target/bench.jar prober-scale --targets"
                        + " %d --interval-s %d --patience-s %d --listeners %d --prober-heap %s`%n", targets,
                        intervalSeconds, patienceSeconds, listeners, heap))
                .append("- machine: ").append(Machine.describe()).append("\n")
                .append(String.format(Locale.ROOT, "- definitions produced in %.0f s; first probes spread over the"
                        + " whole interval (jitter.fraction 1)%n%n", loadSeconds))
                .append("| start | every definition read (s) | half probed (s) | 99 % probed (s) | all probed (s)"
                        + " | probed | RSS (MiB) | heap after full GC (MiB) | heap per target (B) | load 1/5/15 |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (ProberScalePhase.Start s : starts) {
            sb.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %,d | %.0f | %.0f | %.0f | %s |%n",
                    s.kind(), s.assignedSeconds(), s.halfProbedSeconds(), s.p99ProbedSeconds(),
                    s.allProbedSeconds(), s.probed(), s.rssBytes() / 1048576.0, s.heapBytes() / 1048576.0,
                    (double) s.heapBytes() / targets, s.load()));
        }
        for (ProberScalePhase.Start s : starts) {
            sb.append("\n").append(s.kind()).append(", live heap by class:\n\n```\n").append(s.histogram())
                    .append("\n```\n");
        }
        return sb.toString();
    }
}
