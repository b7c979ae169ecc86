package io.healthmesh.bench.load;

import io.healthmesh.bench.run.BenchReport;
import io.healthmesh.bench.run.ChildJvm;
import io.healthmesh.bench.run.PeerCpuPhase;
import io.healthmesh.bench.run.PhaseTimes;
import io.healthmesh.bench.run.ResultTap;
import io.healthmesh.bench.run.TargetLoader;
import io.healthmesh.bench.run.ThroughputPhase;
import io.healthmesh.bench.run.WarmupBudget;
import io.healthmesh.bench.run.WarmupGate;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.testkit.farm.TargetFarm;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The throughput phases and the peers beside them: per protocol, the prober's warm-up at full rate, its window, then
 * HAProxy and blackbox_exporter on the same targets. Its flags, their defaults per mode, and the step itself.
 */
public final class ThroughputStep {

    @Option(names = "--tcp-targets", description = "TCP targets of the throughput phase (default 16000 in both modes).")
    public Integer tcpTargets;
    @Option(names = "--http-targets", description = "HTTP targets of the throughput phase (default 8000 in both modes).")
    public Integer httpTargets;
    @Option(names = "--protocol-order", split = ",", description = "The order of the throughput phases, each "
            + "protocol at most once (default TCP,HTTP).")
    public List<Protocol> protocolOrder;
    @Option(names = "--interval-ms", defaultValue = "1000", description = "Interval of the throughput phase.")
    int intervalMs;
    @Option(names = "--window-s", description = "Measurement window of each throughput phase (default 20, short 6).")
    public Integer windowSeconds;
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
    public Double warmupJitMillis;
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
    @Option(names = "--no-peers", description = "Skip HAProxy and blackbox_exporter in the throughput phases (the "
            + "detection phase always runs HAProxy beside healthmesh: it needs bench/scripts/install-peers.sh).")
    public boolean noPeers;

    private boolean shortMode;
    private final Map<Protocol, PeerCpuPhase.Figure> blackboxEarly = new EnumMap<>(Protocol.class);

    /** Fills in the mode's defaults and refuses a flag out of range. */
    public void defaults(boolean isShort) {
        this.shortMode = isShort;
        // the short mode probes at the full mode's rates: at lower rates the prober's per-tick and per-batch work is
        // shared by fewer probes, so its CPU per probe, and with it the ratio to HAProxy, reads higher than in the
        // full run (docs/BENCHMARKS.md, "The short mode")
        tcpTargets = tcpTargets != null ? tcpTargets : 16_000;
        httpTargets = httpTargets != null ? httpTargets : 8_000;
        windowSeconds = Flags.orDefault(windowSeconds, isShort, 20, 6);
        warmupMaxSeconds = Flags.orDefault(warmupMaxSeconds, isShort, 90, 50);
        warmupRule = warmupRule != null ? warmupRule : isShort ? WarmupGate.Rule.NOT_RISING : WarmupGate.Rule.STABLE;
        // the short mode waits for quieter compilers than the full one: with the full mode's limit its short warm-ups
        // "settled" while the rates still fell and the compilers' work then weighed on the window; with the lower
        // limit the TCP warm-up runs to its budget and says so (docs/BENCHMARKS.md, "The short mode")
        warmupJitMillis = warmupJitMillis != null ? warmupJitMillis : isShort ? 10.0 : 20.0;
        Flags.inRange("--warmup-jit-ms-per-s", warmupJitMillis, 0, 2_000);
        // both modes read the compilers by their CPU and leave it out of the window: an elapsed reading counts a
        // compilation only once it ends, so a long C2 compilation in progress reads as a quiet JIT and its CPU lands
        // in the window (docs/BENCHMARKS.md, "What is measured, and how")
        windowWithoutJit = windowWithoutJit != null ? windowWithoutJit : true;
        warmupJit = warmupJit != null ? warmupJit : ThroughputPhase.JitSource.CPU;
    }

    /** Fills in and checks the protocols' order (after {@link #defaults}). */
    public void order() {
        // TCP first by default: HTTP first in the short mode did not settle HTTP's warm-up either and read TCP no
        // closer to the full run (docs/BENCHMARKS.md, "The short mode"); both orders stay in the flag
        protocolOrder = protocolOrder != null ? List.copyOf(new LinkedHashSet<>(protocolOrder))
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

    /** Runs each protocol's phase and its peers; a failed phase is reported and the next one runs. */
    public void run(BenchReport report, ChildJvm prober, TargetLoader loader, ResultTap results, TargetFarm farm,
                    Path work, PhaseTimes times) throws InterruptedException {
        Duration window = Duration.ofSeconds(windowSeconds);
        Map<Protocol, List<PeerCpuPhase.Figure>> byProtocol = new EnumMap<>(Protocol.class);
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
     * {@link #run} then reads the figures taken here instead of measuring blackbox_exporter again.
     */
    public Runnable blackboxWhileStarting(BenchReport report, TargetFarm farm, Path work, PhaseTimes times) {
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
}
