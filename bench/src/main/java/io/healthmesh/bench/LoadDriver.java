package io.healthmesh.bench;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.bench.farm.FarmLayout;
import io.healthmesh.bench.farm.FarmTarget;
import io.healthmesh.bench.farm.TargetFarm;
import io.healthmesh.bench.run.AggregatorThroughputPhase;
import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.BenchStack;
import io.healthmesh.bench.run.CapacityPhase;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.DetectionPhase;
import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.bench.run.GroupLag;
import io.healthmesh.bench.run.JitQuiet;
import io.healthmesh.bench.run.KeepingUp;
import io.healthmesh.bench.run.Machine;
import io.healthmesh.bench.run.PeerCpuPhase;
import io.healthmesh.bench.run.PhaseTimes;
import io.healthmesh.bench.run.PublishCostPhase;
import io.healthmesh.bench.run.ResultTap;
import io.healthmesh.bench.run.StateTap;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.ThroughputPhase;
import io.healthmesh.bench.run.TopicSizes;
import io.healthmesh.bench.run.WarmupBudget;
import io.healthmesh.bench.run.WarmupGate;
import io.healthmesh.bench.run.WorkFiles;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.PublishTuning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Runs the benchmark of docs/BENCHMARKS.md on this machine: an embedded broker and registry, the loopback target
 * farm, one prober and one aggregator in child JVMs, HAProxy and blackbox_exporter on the same farm, phase after
 * phase; prints the figures as Markdown and writes them to {@code --out}. Every phase is bounded in time.
 */
@Command(name = "load-driver", mixinStandardHelpOptions = true,
        description = "healthmesh load benchmark against a loopback target farm, side by side with HAProxy and "
                + "blackbox_exporter.")
public final class LoadDriver implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(LoadDriver.class);
    static final String AGGREGATOR_GROUP = "bench-aggregator";

    @Option(names = "--short", description = "The short mode (< 2 minutes on 2 cores): the full mode's targets "
            + "on the same farm, short windows, a shorter warm-up bound; no detection, capacity, "
            + "aggregator-throughput or publishing-cost phase unless asked.")
    boolean shortMode;
    @Option(names = "--tcp-targets", description = "TCP targets of the throughput phase (default 16000 in both modes).")
    Integer tcpTargets;
    @Option(names = "--http-targets", description = "HTTP targets of the throughput phase (default 8000 in both modes).")
    Integer httpTargets;
    @Option(names = "--protocol-order", split = ",", description = "The order of the throughput phases, each "
            + "protocol at most once (default TCP,HTTP).")
    List<Protocol> protocolOrder;
    @Option(names = "--interval-ms", defaultValue = "1000", description = "Interval of the throughput phase.")
    int intervalMs;
    @Option(names = "--window-s", description = "Measurement window of each throughput phase (default 20, short 6).")
    Integer windowSeconds;
    @Option(names = "--warmup-max-s", description = "Upper bound of the warm-up at full rate before each throughput "
            + "window, which ends earlier once the prober's JIT has settled (default 90, short 50).")
    Integer warmupMaxSeconds;
    @Option(names = "--warmup-stable", defaultValue = "3", description = "Consecutive probes-per-CPU-second rates "
            + "(each over --warmup-span-s seconds, sampled every second) that must agree to end a warm-up.")
    int warmupStable;
    @Option(names = "--warmup-span-s", defaultValue = "2", description = "Seconds each warm-up rate covers.")
    int warmupSpan;
    @Option(names = "--warmup-tolerance", defaultValue = "0.03", description = "Largest relative spread of those rates.")
    double warmupTolerance;
    @Option(names = "--warmup-jit-ms-per-s", description = "Most JIT compilation time per second (ms, all compiler "
            + "threads) over those seconds for the warm-up to end (default 20 = 2 %% of a core, short 10).")
    Double warmupJitMillis;
    @Option(names = "--warmup-rule", description = "What the warm-up's last rates must show: STABLE (within "
            + "--warmup-tolerance of each other) or NOT_RISING (none above the oldest by more than it) (default "
            + "STABLE, short NOT_RISING).")
    WarmupGate.Rule warmupRule;
    @Option(names = "--warmup-jit", description = "The JIT time the warm-up reads: ELAPSED (the compilers' elapsed "
            + "compilation time, counted when a compilation ends) or CPU (the compiler threads' CPU time) (default "
            + "CPU).")
    ThroughputPhase.JitSource warmupJit;
    @Option(names = "--window-without-jit", negatable = true, description = "Leave the CPU time of the prober's "
            + "JIT compiler threads in a throughput window out of its CPU figures: the steady state's estimate, "
            + "whose compilers are idle (default on; the report says how much was left out).")
    Boolean windowWithoutJit;
    @Option(names = "--detect-targets", description = "Flipped targets per protocol (default 200, short 0; 0 skips "
            + "the phase and the aggregator it needs).")
    Integer detectTargets;
    @Option(names = "--detect-interval-ms", defaultValue = "1000", description = "Interval of the detection phase.")
    int detectIntervalMs;
    @Option(names = "--detect-rehearsal", negatable = true, description = "Flip the detection targets once, "
            + "unmeasured, before the measured round, so that the paths a state change takes are compiled (default "
            + "on; off in the short mode, whose two minutes it does not fit).")
    Boolean detectRehearsal;
    @Option(names = "--detect-jit-ms-per-s", description = "Before the detection phase's flips, wait until the JIT "
            + "compilers of the driver, prober and aggregator JVMs together use at most this many ms of CPU per second "
            + "(3 samples in a row); 0 waits for none (default 50; 0 in the short mode).")
    Double detectJitMillis;
    @Option(names = "--detect-jit-wait-max-s", defaultValue = "180", description = "Upper bound of that wait; the "
            + "flips start after it whatever the compilers do, and the report says so.")
    int detectJitWaitMaxSeconds;
    @Option(names = "--threshold", defaultValue = "3", description = "Healthy and unhealthy thresholds of the detection phase.")
    int threshold;
    @Option(names = "--capacity-targets", description = "Targets of the heap and capacity phase (default 100000, short 0 = skipped).")
    Integer capacityTargets;
    @Option(names = "--capacity-interval-ms", defaultValue = "10000", description = "Interval of the capacity phase.")
    int capacityIntervalMs;
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
    @Option(names = "--publish-cost", negatable = true, description = "Run the publishing-cost phase (bytes and CPU "
            + "per result for each --publish-codecs x --publish-linger-ms, on a broker of its own; default on in the "
            + "full mode, off in the short one).")
    Boolean publishCost;
    @Option(names = "--publish-cost-only", description = "Run only the publishing-cost phase.")
    boolean publishCostOnly;
    @Option(names = "--publish-codecs", split = ",", defaultValue = "none,lz4,zstd,snappy,gzip",
            description = "Compressions of the publishing-cost phase.")
    List<String> publishCodecs;
    @Option(names = "--publish-linger-ms", split = ",", defaultValue = "5,20,50",
            description = "Linger values of the publishing-cost phase.")
    List<Integer> publishLingers;
    @Option(names = "--publish-batch-bytes", split = ",", defaultValue = "16384",
            description = "Batch sizes of the publishing-cost phase.")
    List<Integer> publishBatches;
    @Option(names = "--publish-rate", defaultValue = "10000", description = "Results per second of the publishing-cost phase.")
    int publishRate;
    @Option(names = "--publish-window-s", defaultValue = "5", description = "Window of each publishing-cost tuning "
            + "(after a warm-up of half as long).")
    int publishWindowSeconds;
    @Option(names = "--no-peers", description = "Skip HAProxy and blackbox_exporter in the throughput phases (the "
            + "detection phase always runs HAProxy beside healthmesh: it needs bench/scripts/install-peers.sh).")
    boolean noPeers;
    @Option(names = "--commit-interval-ms", defaultValue = "" + AggregatorConfig.DEFAULT_COMMIT_INTERVAL_MS,
            description = "The aggregators' commit.interval.ms (default: the product's, ${DEFAULT-VALUE}).")
    long commitIntervalMs;
    @Option(names = "--prober-setting", description = "A prober setting (key=value, repeatable) on top of the "
            + "bench's own, e.g. transport=io_uring.")
    Map<String, String> proberSettings = new LinkedHashMap<>();
    @Option(names = "--aggregator-stamp-ahead-ms", defaultValue = "0", description = "Stamp the aggregator phase's "
            + "results this far in the future, so that the aggregator takes each for fresh input (commit.on.change's "
            + "worst case); 0 = stamped when produced (default); at most 3600000, the broker's default bound on "
            + "future timestamps.")
    long aggregatorStampAheadMs;
    @Option(names = "--aggregator-setting", description = "An aggregator setting (key=value, repeatable) on top of the "
            + "bench's own, e.g. commit.on.change=false.")
    Map<String, String> aggregatorSettings = new LinkedHashMap<>();
    @Option(names = "--broker-setting", description = "A setting (key=value, repeatable) of the driver's broker "
            + "(of each, with --brokers 3) on top of its own, e.g. add.partitions.to.txn.retry.backoff.ms=5.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();
    @Option(names = "--brokers", defaultValue = "1", description = "Brokers in the driver's JVM: 1 (default, every "
            + "figure of record) or 3, a cluster with every topic replicated to all three (min.insync.replicas 2) "
            + "and the aggregators' replication.factor 3 unless --aggregator-setting gives one. Three brokers share "
            + "the same cores: read latencies, not CPU ratios, from such a run.")
    int brokers;
    @Option(names = "--child-jvm-option", description = "A JVM option (repeatable) for the prober and aggregator "
            + "JVMs, on top of the bench's own.")
    List<String> childJvmOptions = new ArrayList<>();
    @Option(names = "--jfr", description = "Record the prober and the aggregator with JFR into this directory.")
    Path jfrDir;
    @Option(names = "--out", defaultValue = "bench/target/bench-report.md", description = "Markdown report file.")
    Path out;
    @Option(names = "--jitter-fraction", defaultValue = "1.0",
            description = "The prober's jitter.fraction (first starts spread over this share of the interval).")
    double jitterFraction;
    @Option(names = "--events-csv", description = "Also write every state event received (CSV) to this file.")
    Path eventsCsv;
    @Option(names = "--prober-heap", defaultValue = "1g", description = "-Xmx and -Xms of the prober JVM.")
    String proberHeap;
    @Option(names = "--aggregator-heap", defaultValue = "1g", description = "-Xmx and -Xms of the aggregator JVM.")
    String aggregatorHeap;

    private String command = "";
    private PhaseTimes times;
    private final Map<Protocol, PeerCpuPhase.Figure> blackboxEarly = new java.util.EnumMap<>(Protocol.class);

    public static void main(String[] args) {
        LoadDriver driver = new LoadDriver();
        driver.command = "java -cp bench/target/benchmarks.jar " + LoadDriver.class.getName()
                + (args.length == 0 ? "" : " " + String.join(" ", args));
        System.exit(new CommandLine(driver).execute(args));
    }

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
        if (jfrDir != null) {
            Files.createDirectories(jfrDir);
        }
        BenchReport report = new BenchReport(command, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                Machine.describe(), (shortMode ? "short" : "full") + ", prober jitter.fraction " + jitterFraction);
        long started = System.nanoTime();
        times = new PhaseTimes(System::nanoTime);
        if (publishCostOnly) {
            publishCost(report);
            return finish(report, started);
        }
        // the same farm in both modes (200 TCP listeners, 10 HTTP listeners of 20 paths), larger only when more
        // targets are flipped than it has
        int tcpListeners = Math.max(detectTargets, 200);
        int httpListeners = Math.max(10, (detectTargets + 19) / 20);
        try (BenchStack stack = BenchStack.start(brokerSettings, brokers);
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
            ChildJvm prober = startProber(stack, work);
            ChildJvm aggregator = detectTargets > 0
                    ? startAggregator(stack, work, "aggregator", "aggregator-state", false) : null;
            times.mark("start (broker, registry, farm, worker JVMs)");
            try {
                // detection first, on a fresh aggregator with no backlog; it is stopped for the throughput phases,
                // which measure the prober alone
                if (detectTargets > 0) {
                    detection(report, stack, farm, loader, results, states, work, prober, aggregator);
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
                throughputAndPeers(report, prober, loader, results, farm, work);
                if (stopping != null) {
                    stopping.join();
                }
                List<TargetSpec> capacitySpecs = List.of();
                if (capacityTargets > 0) {
                    // the throughput phases' results are history the aggregator must not replay
                    stack.truncate(stack.topics().probeResults());
                    aggregator = startAggregator(stack, work, "aggregator-capacity");
                    capacitySpecs = FarmSpecs.over(farm.targets(Protocol.TCP), capacityTargets, "cap",
                            capacityIntervalMs, 1_000, 3, 3);
                    capacity(report, prober, aggregator, stack, loader, results, farm, capacitySpecs);
                    aggregator = null;   // closed by the capacity phase
                }
                if (aggregatorResults > 0) {
                    prober.close();
                    if (aggregator != null) {
                        aggregator.close();
                        aggregator = null;
                    }
                    List<TargetSpec> specs = capacitySpecs.isEmpty()
                            ? applySmallSet(loader, farm) : capacitySpecs;
                    aggregatorThroughput(report, stack, specs, work);
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
        if (publishCost) {
            publishCost(report);
        }
        return finish(report, started);
    }

    private int finish(BenchReport report, long started) throws IOException {
        times.mark("rest of the run and shutdown");
        report.closing(times.describe());
        double seconds = (System.nanoTime() - started) / 1e9;
        report.closing(String.format(java.util.Locale.ROOT, "Whole run: %.0f s%s.", seconds, shortMode
                ? String.format(java.util.Locale.ROOT, " (the short mode's budget: %d s, %s)",
                WarmupBudget.SHORT_RUN.toSeconds(), seconds <= WarmupBudget.SHORT_RUN.toSeconds() ? "kept" : "exceeded")
                : ""));
        String md = report.markdown();
        System.out.println(md);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md);
        LOG.info("report written to {}", out.toAbsolutePath());
        return 0;
    }

    void applyModeDefaults() {
        // the short mode probes at the full mode's rates: at lower rates the prober's per-tick and per-batch work is
        // shared by fewer probes, so its CPU per probe, and with it the ratio to HAProxy, reads higher than in the
        // full run (docs/BENCHMARKS.md, "The short mode")
        tcpTargets = tcpTargets != null ? tcpTargets : 16_000;
        httpTargets = httpTargets != null ? httpTargets : 8_000;
        windowSeconds = orDefault(windowSeconds, 20, 6);
        warmupMaxSeconds = orDefault(warmupMaxSeconds, 90, 50);
        warmupRule = warmupRule != null ? warmupRule : shortMode ? WarmupGate.Rule.NOT_RISING : WarmupGate.Rule.STABLE;
        // the short mode waits for quieter compilers than the full one: with the full mode's limit its short warm-ups
        // "settled" while the rates still fell and the compilers' work then weighed on the window; with the lower
        // limit the TCP warm-up runs to its budget and says so (docs/BENCHMARKS.md, "The short mode")
        warmupJitMillis = warmupJitMillis != null ? warmupJitMillis : shortMode ? 10.0 : 20.0;
        inRange("--warmup-jit-ms-per-s", warmupJitMillis, 0, 2_000);
        // both modes read the compilers by their CPU and leave it out of the window: an elapsed reading counts a
        // compilation only once it ends, so a long C2 compilation in progress reads as a quiet JIT and its CPU lands
        // in the window (docs/BENCHMARKS.md, "What is measured, and how")
        windowWithoutJit = windowWithoutJit != null ? windowWithoutJit : true;
        warmupJit = warmupJit != null ? warmupJit : ThroughputPhase.JitSource.CPU;
        // the short mode gives its time to the TCP warm-up instead of the detection phase: a shorter warm-up does not
        // settle, and detection on a cold aggregator measures its start, not detection
        detectTargets = orDefault(detectTargets, 200, 0);
        // the detection phase measures a checker that has been running (docs/BENCHMARKS.md, "What is measured, and
        // how": otherwise the compilers hold most of the cores during the flips); the short mode, which measures
        // detection only when asked, has no time for the minute that costs
        detectRehearsal = detectRehearsal != null ? detectRehearsal : !shortMode;
        detectJitMillis = detectJitMillis != null ? detectJitMillis : shortMode ? 0.0 : 50.0;
        // refused here, by name, rather than by a child JVM's start or a gate that never waits
        inRange("--detect-jit-ms-per-s", detectJitMillis, 0, 2_000);
        inRange("--detect-jit-wait-max-s", detectJitWaitMaxSeconds, 1, 3_600);
        inRange("--commit-interval-ms", commitIntervalMs, 10, 60_000);
        if (brokers != 1 && brokers != 3) {
            throw new IllegalArgumentException("--brokers must be 1 or 3, not " + brokers);
        }
        capacityTargets = orDefault(capacityTargets, 100_000, 0);
        aggregatorResults = aggregatorResults != null ? aggregatorResults : shortMode ? 0L : 300_000L;
        aggregatorInstances = aggregatorInstances != null ? aggregatorInstances : List.of(1, 2);
        publishCost = publishCost != null ? publishCost : !shortMode;
        // TCP first by default: HTTP first in the short mode did not settle HTTP's warm-up either and read TCP no
        // closer to the full run (docs/BENCHMARKS.md, "The short mode"); both orders stay in the flag
        protocolOrder = protocolOrder != null ? List.copyOf(new java.util.LinkedHashSet<>(protocolOrder))
                : List.of(Protocol.TCP, Protocol.HTTP);
        protocolOrder.forEach(this::targetsOf);
    }

    private int targetsOf(Protocol protocol) {
        return switch (protocol) {
            case TCP -> tcpTargets;
            case HTTP -> httpTargets;
            default -> throw new IllegalArgumentException("--protocol-order: the throughput phases measure TCP and "
                    + "HTTP, not " + protocol);
        };
    }

    private static void inRange(String flag, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(flag + " must be within " + fmt(min) + ".." + fmt(max) + ", not "
                    + fmt(value));
        }
    }

    private static String fmt(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
                : Double.toString(value);
    }

    private int orDefault(Integer given, int full, int brief) {
        return given != null ? given : shortMode ? brief : full;
    }

    private void throughputAndPeers(BenchReport report, ChildJvm prober, TargetLoader loader, ResultTap results,
                                    TargetFarm farm, Path work) throws InterruptedException {
        Duration window = Duration.ofSeconds(windowSeconds);
        Map<Protocol, List<PeerCpuPhase.Figure>> byProtocol = new java.util.EnumMap<>(Protocol.class);
        List<Protocol> order = protocolOrder.stream().filter(p -> targetsOf(p) > 0).toList();
        for (Protocol protocol : order) {
            int targets = targetsOf(protocol); // --tcp-targets 0 / --http-targets 0: skipped, warm-up included
            List<FarmTarget> pool = farm.targets(protocol);
            Duration warmupMax = Duration.ofSeconds(warmupMaxSeconds);
            if (shortMode && !noPeers) {
                // each warm-up gets what the budget leaves after the steps that follow it: two warm-ups at their
                // own bounds would take the run past its two minutes
                boolean last = protocol == order.get(order.size() - 1);
                warmupMax = WarmupBudget.bound(WarmupBudget.SHORT_RUN, times.elapsed(), last
                        ? WarmupBudget.AFTER_LAST_WARMUP
                        : WarmupBudget.AFTER_LAST_WARMUP.plus(WarmupBudget.NEXT_PROTOCOL), warmupMax);
            }
            ThroughputPhase.Figure hm;
            try {
                hm = ThroughputPhase.run(prober, loader, results, pool, protocol, targets, intervalMs,
                        new ThroughputPhase.Warmup(warmupMax, warmupStable, warmupSpan,
                                warmupTolerance, warmupJitMillis, warmupRule, warmupJit, shortMode), window,
                        times, windowWithoutJit);
                report.throughput(hm);
            } catch (RuntimeException e) {
                report.failed(1, protocol + " throughput", e);
                continue;
            }
            if (noPeers) {
                continue;
            }
            List<PeerCpuPhase.Figure> peers = byProtocol.computeIfAbsent(protocol, p -> new ArrayList<>());
            try {
                // one HAProxy at a time, as in the full mode: two HAProxies measured together can overload the
                // farm (checks time out, and a timed-out check reads cheap); the short mode reads each over 4 s (tens
                // of thousands of checks) to stay in its budget
                peers.add(PeerCpuPhase.haproxy(work.resolve("haproxy-" + protocol), pool, protocol, targets,
                        intervalMs, shortMode ? Duration.ofSeconds(Math.min(4, windowSeconds)) : window,
                        prober::cpuNanos));
                times.mark("HAProxy " + protocol);
            } catch (IOException | RuntimeException e) {
                report.failed(1, "HAProxy " + protocol, e);
            }
            PeerCpuPhase.Figure early = blackboxEarly.get(protocol);
            if (early != null) {
                peers.add(early);
                continue;
            }
            try {
                // the short mode reads blackbox_exporter over 4 s: it answers about a thousand scrapes a second
                // whatever is asked, so 4 s hold thousands of them, and the 2 s saved per protocol keep the run
                // within its budget when a warm-up runs to its bound
                peers.add(PeerCpuPhase.blackbox(work.resolve("blackbox-" + protocol), pool, protocol,
                        hm.achievedPerSecond(), shortMode ? Duration.ofSeconds(Math.min(4, windowSeconds)) : window));
                times.mark("blackbox_exporter " + protocol);
            } catch (IOException | RuntimeException e) {
                report.failed(1, "blackbox_exporter " + protocol, e);
            }
        }
        List<PeerCpuPhase.Figure> peers = byProtocol.values().stream().flatMap(List::stream).toList();
        if (!peers.isEmpty()) {
            report.peers(peers);
        }
    }

    /**
     * The short mode measures blackbox_exporter while the detection phase waits for its cold aggregator (about
     * 20 s the prober spends on 120 targets), scraped at the rate asked of healthmesh (targets / interval) since
     * its achieved rate is not known yet; its CPU is its own, read from /proc like every figure, but the machine
     * is busier then than in the full mode's peer windows, so the blackbox_exporter ratios are the rougher ones.
     */
    private Runnable blackboxWhileStarting(BenchReport report, TargetFarm farm, Path work) {
        return () -> {
            for (Protocol protocol : List.of(Protocol.TCP, Protocol.HTTP)) {
                int targets = protocol == Protocol.TCP ? tcpTargets : httpTargets;
                if (targets <= 0) {
                    continue;
                }
                try {
                    blackboxEarly.put(protocol, PeerCpuPhase.blackbox(work.resolve("blackbox-" + protocol),
                            farm.targets(protocol), protocol, targets * 1000.0 / intervalMs,
                            Duration.ofSeconds(windowSeconds)));
                    times.mark("blackbox_exporter " + protocol + " (aggregator starting)");
                } catch (IOException | RuntimeException e) {
                    report.failed(1, "blackbox_exporter " + protocol, e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        };
    }

    private void detection(BenchReport report, BenchStack stack, TargetFarm farm, TargetLoader loader,
                           ResultTap results, StateTap states, Path work, ChildJvm prober, ChildJvm aggregator)
            throws InterruptedException {
        try {
            DetectionPhase.Result r = DetectionPhase.run(farm, loader, results, states, work.resolve("haproxy-detect"),
                    detectTargets, detectIntervalMs, threshold, Duration.ofMillis(
                            Math.max(4_000L, (long) detectIntervalMs * (threshold + 2))),
                    Duration.ofSeconds(shortMode ? 4 : 15), detectRehearsal, times, shortMode
                            ? new DetectionPhase.Overlap(noPeers ? null : blackboxWhileStarting(report, farm, work),
                            true)
                            : DetectionPhase.Overlap.NONE,
                    detectJitMillis <= 0 ? null : new DetectionPhase.JitGate(JitQuiet.of(List.of(
                            JitQuiet.self("driver"), new JitQuiet.Jvm("prober", prober::compilerCpuMillis),
                            new JitQuiet.Jvm("aggregator", aggregator::compilerCpuMillis))), detectJitMillis, 3,
                            Duration.ofSeconds(detectJitWaitMaxSeconds)),
                    new DetectionPhase.AggregatorGate(KeepingUp.of(() -> GroupLag.lag(stack.admin(), AGGREGATOR_GROUP,
                            stack.topics().probeResults())), Duration.ofSeconds(shortMode ? 20 : 120)));
            report.latency(r.latencyMicros(), r.toResultMicros(), r.toAggregatorMicros(), r.toConsumerMicros(),
                    commitIntervalMs);
            report.detection(r);
        } catch (IOException | RuntimeException e) {
            report.failed(3, "detection", e);
        }
    }

    private void capacity(BenchReport report, ChildJvm prober, ChildJvm aggregator, BenchStack stack,
                          TargetLoader loader, ResultTap results, TargetFarm farm, List<TargetSpec> specs) {
        try {
            report.capacity(CapacityPhase.run(prober, aggregator, AGGREGATOR_GROUP, stack.admin(),
                    stack.topics().targets(), loader, results, farm.targets(Protocol.TCP), specs, capacityIntervalMs,
                    Duration.ofSeconds(Math.max(windowSeconds, 2L * capacityIntervalMs / 1000))));
        } catch (Exception e) {
            report.failed(4, "capacity", e);
        }
    }

    private List<TargetSpec> applySmallSet(TargetLoader loader, TargetFarm farm) {
        List<TargetSpec> specs = FarmSpecs.over(farm.targets(Protocol.TCP), aggregatorTargets, "agg", 10_000, 1_000, 3, 3,
                aggregatorGroupSize);
        loader.apply(specs);
        return specs;
    }

    private void aggregatorThroughput(BenchReport report, BenchStack stack, List<TargetSpec> specs, Path work) {
        List<AggregatorThroughputPhase.Figure> figures = new ArrayList<>();
        for (int instances : aggregatorInstances) {
            try {
                AggregatorThroughputPhase.Figure f = AggregatorThroughputPhase.run(stack, specs, aggregatorResults,
                        AGGREGATOR_GROUP, instances, aggregatorStampAheadMs, n -> {
                            try {
                                // each instance its own state directory; the first reuses the earlier phases' state
                                return startAggregator(stack, work, "aggregator-catchup-" + instances + "-" + n,
                                        n == 1 ? "aggregator-state" : "aggregator-state-" + n);
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
            report.aggregatorInstances(figures, specs.size(), aggregatorStreamThreads());
        }
    }

    /** Threads per aggregator instance: {@code --aggregator-setting kafka.num.stream.threads=N}, or Streams' 1. */
    private int aggregatorStreamThreads() {
        String set = aggregatorSettings.get("kafka.num.stream.threads");
        if (set != null) {
            try {
                return Math.max(1, Integer.parseInt(set.trim()));
            } catch (NumberFormatException e) {
                // the aggregator refuses to start with it; the figures say so
            }
        }
        return 1;
    }

    private void publishCost(BenchReport report) {
        List<PublishTuning> tunings = new ArrayList<>();
        for (int batch : publishBatches) {
            for (int linger : publishLingers) {
                for (String codec : publishCodecs) {
                    tunings.add(new PublishTuning(codec, linger, batch));
                }
            }
        }
        String load = String.format(java.util.Locale.ROOT, "load average %.2f when the phase started",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try {
            int targets = 10_000;
            report.publishCost(PublishCostPhase.run(tunings, targets, publishRate,
                    Duration.ofMillis(publishWindowSeconds * 500L), Duration.ofSeconds(publishWindowSeconds)),
                    targets, load);
        } catch (Exception e) {
            report.failed(7, "publishing cost", e);
        }
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

    private ChildJvm startProber(BenchStack stack, Path work) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>(Map.of(
                "bootstrap.servers", stack.bootstrapServers(),
                "schema.registry.url", stack.registryUrl(),
                "prober.id", "bench-prober",
                "allow.list", "127.0.0.0/8", // the bench's backends listen on loopback, denied by default
                "http.host", "127.0.0.1",
                "http.port", "0",
                "max.in.flight", "10000",
                // first starts spread over the whole interval, as HAProxy spreads its checks: with the default 0.1
                // every fixed-rate target of one interval fires within its first tenth, a burst every interval
                "jitter.fraction", String.valueOf(jitterFraction),
                "buffer.capacity", "200000"));
        settings.putAll(proberSettings);
        return ChildJvm.start("prober", "prober", settings, proberHeap, jfr("prober.jfr"), work, childJvmOptions);
    }

    private ChildJvm startAggregator(BenchStack stack, Path work, String name) throws IOException {
        return startAggregator(stack, work, name, "aggregator-state");
    }

    private ChildJvm startAggregator(BenchStack stack, Path work, String name, String stateDir) throws IOException {
        return startAggregator(stack, work, name, stateDir, true);
    }

    private ChildJvm startAggregator(BenchStack stack, Path work, String name, String stateDir, boolean record)
            throws IOException {
        Map<String, String> settings = new LinkedHashMap<>(Map.of(
                "bootstrap.servers", stack.bootstrapServers(),
                "schema.registry.url", stack.registryUrl(),
                "application.id", AGGREGATOR_GROUP,
                "state.dir", work.resolve(stateDir).toString(),
                "http.host", "127.0.0.1",
                "http.port", "0",
                "commit.interval.ms", Long.toString(commitIntervalMs),
                "replication.factor", Integer.toString(stack.brokerCount())));
        settings.putAll(aggregatorSettings);
        return ChildJvm.start(name, "aggregator", settings, aggregatorHeap, record ? jfr(name + ".jfr") : null, work,
                childJvmOptions);
    }

    private Path jfr(String file) {
        return jfrDir == null ? null : jfrDir.toAbsolutePath().resolve(file);
    }
}
