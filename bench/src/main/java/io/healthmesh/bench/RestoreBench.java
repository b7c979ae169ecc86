package io.healthmesh.bench;

import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.run.RestorePhase;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.WorkerSettings;
import io.healthmesh.core.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * How long the aggregator takes to start with the state of many targets, and how much memory and disk that state
 * takes (see {@link RestorePhase}). Prints a markdown section for docs/BENCHMARKS.md.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = "Aggregator state of many targets: ingest, restart and restore from the changelog, RSS and disk.")
public final class RestoreBench implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreBench.class);
    private static final String GROUP = "bench-restore-aggregator";

    @Option(names = "--targets", defaultValue = "1000000", description = "Targets whose state the aggregator holds.")
    int targets;
    @Option(names = "--aggregator-heap", defaultValue = "1g", description = "-Xmx and -Xms of the aggregator JVM.")
    String heap;
    @Option(names = "--out", description = "Also write the report to this file.")
    Path out;
    @Option(names = "--no-results", description = "Produce no result per target before the first start: it then"
            + " consumes definitions only (its definitions per second).")
    boolean noResults;
    @Option(names = "--jfr", description = "Record the first start with JFR (profile settings) into this file, the restart and the"
            + " start on an empty state beside it (-restart.jfr, -empty.jfr).")
    Path jfr;
    @Option(names = "--aggregator-setting", description = "An extra aggregator setting, key=value (repeatable), e.g. rocksdb.memory.mb=512.")
    Map<String, String> extra = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Path work = Files.createTempDirectory("healthmesh-restore-");
        Path stateDir = work.resolve("aggregator-state");
        List<TargetSpec> specs = RestorePhase.specs(targets);
        RestorePhase.Figure f;
        try (BenchStack stack = BenchStack.start(); TargetLoader loader = new TargetLoader(stack)) {
            int[] n = {0};
            f = RestorePhase.run(stack, loader, specs, GROUP, stateDir, recording -> {
                Map<String, String> settings = new java.util.HashMap<>(extra);
                settings.putAll(WorkerSettings.aggregator(stack, GROUP, stateDir));
                return ChildJvm.start("aggregator-" + ++n[0], "aggregator", settings, heap,
                        recording == null ? null : recording.toAbsolutePath(), work);
            }, !noResults, jfr);
        }
        String report = report(started, f);
        System.out.println(report);
        if (out != null) {
            Files.writeString(out, report);
        }
        LOG.info("aggregator logs in {}", work);
        return f.starts().stream().allMatch(RestorePhase.Start::finished) ? 0 : 1;
    }

    private String report(Instant started, RestorePhase.Figure f) {
        StringBuilder sb = new StringBuilder();
        sb.append("### Aggregator state of ").append(String.format(Locale.ROOT, "%,d", f.targets()))
                .append(" targets, run of ").append(started).append("\n\n")
                .append("- command: `java -jar bench/target/bench.jar restore --targets ")
                .append(f.targets()).append(" --aggregator-heap ").append(heap)
                .append(noResults ? " --no-results" : "").append(jfr == null ? "" : " --jfr " + jfr)
                .append(extra.entrySet().stream().map(e -> " --aggregator-setting " + e.getKey() + "=" + e.getValue())
                        .collect(java.util.stream.Collectors.joining())).append("`\n")
                .append("- machine: ").append(Machine.describe()).append("\n")
                .append(String.format(Locale.ROOT, "- definitions%s produced in %.0f s%n",
                        noResults ? "" : " and one result per target", f.loadSeconds()))
                .append(String.format(Locale.ROOT, "- first start: %,d definitions consumed at %,.0f definitions/s%n%n",
                        f.definitions(), f.definitionsPerSecond()))
                .append("| start | definitions consumed (s) | ready (s) | RSS (MiB) | heap after full GC (MiB)"
                        + " | heap per target (B) | local state (MiB) |\n|---|---|---|---|---|---|---|\n");
        for (RestorePhase.Start s : f.starts()) {
            boolean heapRead = s.heapBytes() >= 0;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %s | %s | %.0f |%n", s.kind(),
                    Double.isNaN(s.definitionsSeconds()) ? "none to consume"
                            : Double.isInfinite(s.definitionsSeconds()) ? "not within 30 min"
                            : String.format(Locale.ROOT, "%.1f", s.definitionsSeconds()),
                    s.finished() ? String.format(Locale.ROOT, "%.1f", s.seconds()) : "not within 30 min",
                    s.rssBytes() / 1048576.0,
                    heapRead ? String.format(Locale.ROOT, "%.0f", s.heapBytes() / 1048576.0) : "not read",
                    heapRead ? String.format(Locale.ROOT, "%.0f", (double) s.heapBytes() / f.targets()) : "not read",
                    s.stateBytes() / 1048576.0));
        }
        for (RestorePhase.Start s : f.starts()) {
            sb.append("\n").append(s.kind()).append(", live heap by class:\n\n```\n").append(s.histogram())
                    .append("\n```\n");
        }
        return sb.toString();
    }
}
