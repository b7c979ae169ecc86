package io.healthmesh.bench;

import io.healthmesh.bench.load.CapacityStep;
import io.healthmesh.bench.load.CatchUpStep;
import io.healthmesh.bench.load.DetectionStep;
import io.healthmesh.bench.load.PublishCostStep;
import io.healthmesh.bench.load.ThroughputStep;
import io.healthmesh.bench.load.Workers;
import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.run.PhaseTimes;
import io.healthmesh.bench.run.ResultTap;
import io.healthmesh.bench.run.StateTap;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.TopicSizes;
import io.healthmesh.bench.run.WarmupBudget;
import io.healthmesh.bench.run.WorkFiles;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.farm.FarmLayout;
import io.healthmesh.testkit.farm.TargetFarm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bench load}: the benchmark of docs/BENCHMARKS.md on this machine: an embedded broker and registry, the
 * loopback target farm, one prober and one aggregator in child JVMs, HAProxy and blackbox_exporter on the same farm,
 * phase after phase; prints the figures as Markdown and writes them to {@code --out}. Every phase is bounded in
 * time. Each phase is a step of {@link io.healthmesh.bench.load} with its own flags; this class orders them and owns
 * the broker, the farm and the worker JVMs they share.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = "healthmesh load benchmark against a loopback target farm, side by side with HAProxy and "
                + "blackbox_exporter.")
public final class LoadDriver implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(LoadDriver.class);

    @Option(names = "--short", description = "The short mode (< 2 minutes on 2 cores): the full mode's targets "
            + "on the same farm, short windows, a shorter warm-up bound; no detection, capacity, "
            + "aggregator-throughput or publishing-cost phase unless asked.")
    boolean shortMode;
    @Option(names = "--out", defaultValue = "bench/target/bench-report.md", description = "Markdown report file.")
    Path out;
    @Option(names = "--events-csv", description = "Also write every state event received (CSV) to this file.")
    Path eventsCsv;

    @Mixin
    Workers workers;
    @Mixin
    ThroughputStep throughput;
    @Mixin
    DetectionStep detection;
    @Mixin
    CapacityStep capacity;
    @Mixin
    CatchUpStep catchUp;
    @Mixin
    PublishCostStep publishCost;
    @Spec
    CommandSpec spec;

    private PhaseTimes times;

    @Override
    public Integer call() throws Exception {
        applyModeDefaults();
        Path work = Files.createTempDirectory("healthmesh-bench-");
        try {
            return run(work);
        } finally {
            // the aggregators' RocksDB state is a full run's bulk (about 120 MB); the logs stay for a look afterwards
            dropAggregatorState(work);
            LOG.info("logs of the run's JVMs and peers kept in {}", work);
        }
    }

    /** The command line the report quotes. */
    private String command() {
        List<String> args = spec.root().commandLine().getParseResult().originalArgs();
        return "java -jar bench/target/bench.jar" + (args.isEmpty() ? "" : " " + String.join(" ", args));
    }

    /**
     * Deletes the aggregators' state directories ({@code aggregator-state}, {@code aggregator-state-N}) under the
     * run's work directory, once their JVMs are gone; anything else there (logs, peers' files) stays.
     */
    static void dropAggregatorState(Path work) throws IOException {
        if (!Files.isDirectory(work)) {
            return;
        }
        List<Path> states;
        try (var entries = Files.list(work)) {
            states = entries.filter(p -> p.getFileName().toString().matches("aggregator-state(-\\d+)?"))
                    .filter(Files::isDirectory).toList();
        }
        for (Path state : states) {
            WorkFiles.deleteTree(state);
        }
    }

    private Integer run(Path work) throws Exception {
        if (workers.jfrDir != null) {
            Files.createDirectories(workers.jfrDir);
        }
        BenchReport report = new BenchReport(command(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                Machine.describe(), (shortMode ? "short" : "full") + ", prober jitter.fraction "
                + workers.jitterFraction);
        long started = System.nanoTime();
        times = new PhaseTimes(System::nanoTime);
        if (publishCost.only()) {
            publishCost.run(report);
            return finish(report, started);
        }
        // the same farm in both modes (200 TCP listeners, 10 HTTP listeners of 20 paths), larger only when more
        // targets are flipped than it has
        int tcpListeners = Math.max(detection.detectTargets, 200);
        int httpListeners = Math.max(10, (detection.detectTargets + 19) / 20);
        try (BenchStack stack = BenchStack.start(workers.brokerSettings, workers.brokers);
             TargetFarm farm = TargetFarm.start(FarmLayout.of(tcpListeners, httpListeners, 20, 0), 1);
             TargetLoader loader = new TargetLoader(stack);
             ResultTap results = new ResultTap(stack);
             StateTap states = new StateTap(stack)) {
            report.note(String.format("Farm: %d TCP listeners and %d HTTP paths on %d HTTP listeners, loopback "
                            + "addresses from %s, one event-loop thread.", tcpListeners, httpListeners * 20,
                    httpListeners, FarmLayout.DEFAULT_FIRST_ADDRESS));
            // JFR's profile settings on both JVMs made the detection phase's aggregator leg several times slower on
            // slow cores, so the detection phase's aggregator is not recorded. The prober is, from its start: a
            // recording started later (jcmd JFR.start) left its compilers far busier in the measured window
            // (docs/BENCHMARKS.md, "What is measured, and how")
            ChildJvm prober = workers.startProber(stack, work);
            ChildJvm aggregator = detection.enabled()
                    ? workers.startAggregator(stack, work, "aggregator", "aggregator-state", false) : null;
            times.mark("start (broker, registry, farm, worker JVMs)");
            try {
                // detection first, on a fresh aggregator with no backlog; it is stopped for the throughput phases,
                // which measure the prober alone
                if (detection.enabled()) {
                    detection.run(report, stack, farm, loader, results, states, work, prober, aggregator, times,
                            throughput.noPeers ? null : throughput.blackboxWhileStarting(report, farm, work, times),
                            workers.commitIntervalMs);
                }
                Thread stopping = null;
                if (aggregator != null) {
                    if (shortMode) {
                        // the aggregator's shutdown (commit, stores closed: about 2 s) overlaps the start of the TCP
                        // warm-up, which measures nothing and takes at least its 5 samples
                        stopping = new Thread(aggregator::close, "bench-aggregator-stop");
                        stopping.start();
                    } else {
                        aggregator.close();
                    }
                    aggregator = null;
                    times.mark("aggregator stop");
                }
                throughput.run(report, prober, loader, results, farm, work, times);
                if (stopping != null) {
                    stopping.join();
                }
                List<TargetSpec> capacitySpecs = List.of();
                if (capacity.enabled()) {
                    // the throughput phases' results are history the aggregator must not replay
                    stack.truncate(stack.topics().probeResults());
                    aggregator = workers.startAggregator(stack, work, "aggregator-capacity");
                    capacitySpecs = capacity.specs(farm);
                    capacity.run(report, prober, aggregator, stack, loader, results, farm, capacitySpecs,
                            throughput.windowSeconds);
                    aggregator = null;   // closed by the capacity phase
                }
                if (catchUp.enabled()) {
                    prober.close();
                    if (aggregator != null) {
                        aggregator.close();
                        aggregator = null;
                    }
                    List<TargetSpec> specs = capacitySpecs.isEmpty()
                            ? catchUp.applySmallSet(loader, farm) : capacitySpecs;
                    catchUp.run(report, stack, specs, work, workers);
                }
                try {
                    report.topicSizes(TopicSizes.markdown(TopicSizes.read(stack.admin(), stack.bootstrapServers(), "group",
                            Duration.ofSeconds(60))));
                } catch (Exception e) {
                    report.failed(8, "topic sizes", e);
                }
            } finally {
                if (eventsCsv != null) {
                    writeEvents(states, eventsCsv);
                }
                if (aggregator != null) {
                    aggregator.close();
                }
                prober.close();
            }
        }
        if (publishCost.enabled()) {
            publishCost.run(report);
        }
        return finish(report, started);
    }

    private int finish(BenchReport report, long started) throws IOException {
        times.mark("rest of the run and shutdown");
        report.closing(times.describe());
        double seconds = (System.nanoTime() - started) / 1e9;
        report.closing(String.format(Locale.ROOT, "Whole run: %.0f s%s.", seconds, shortMode
                ? String.format(Locale.ROOT, " (the short mode's budget: %d s, %s)",
                WarmupBudget.SHORT_RUN.toSeconds(), seconds <= WarmupBudget.SHORT_RUN.toSeconds() ? "kept" : "exceeded")
                : ""));
        String md = report.markdown();
        System.out.println(md);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md);
        LOG.info("report written to {}", out.toAbsolutePath());
        return 0;
    }

    /** Every step's defaults for the mode, each flag out of range refused by name. */
    void applyModeDefaults() {
        throughput.defaults(shortMode);
        detection.defaults(shortMode);
        workers.validate();
        capacity.defaults(shortMode);
        catchUp.defaults(shortMode);
        publishCost.defaults(shortMode);
        throughput.order();
    }

    private static void writeEvents(StateTap states, Path file) throws IOException {
        StringBuilder csv = new StringBuilder("targetId,status,previousStatus,stale,lastResultAtMs,latencyMicros,"
                + "updatedAtMs,receivedEpochMicros\n");
        for (StateTap.StateEvent e : states.events()) {
            csv.append(e.targetId()).append(',').append(e.status()).append(',').append(e.previousStatus()).append(',')
                    .append(e.stale()).append(',').append(e.lastResultAtMs()).append(',').append(e.latencyMicros())
                    .append(',').append(e.updatedAtMs()).append(',').append(e.receivedEpochMicros()).append('\n');
        }
        Files.writeString(file, csv);
    }
}
