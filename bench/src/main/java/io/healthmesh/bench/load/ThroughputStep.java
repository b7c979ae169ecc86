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
        // tried on 2026-12-01: the short mode with the full mode's 16,000 / 8,000 targets and no detection phase
        // read further from the full run (TCP -9 %, HTTP +20 %, 147 s) than with half of them and a short detection
        // phase (+1.4 %, +12.6 %, 139 s): the detection phase's HTTP probes warm the HTTP path before its window
        // three quarters of the full rates since 2026-12-04: at half of them the prober's CPU per probe reads higher
        // than at the full mode's (its per-tick and per-batch work is shared by fewer probes), so the TCP ratio read
        // 9-15 % above the full run's; at the full rates the prober fell behind while its compilers still ran (TCP
        // -7 to -27 %); at three quarters both ratios were within 10 % of the 08:55 full run in 5 of 7 runs, with the
        // half rate in 1 of 3 and the full rates in 0 of 5, and of the 09:39 full run (the same code, its TCP ratio
        // 12 % from the 08:55 one's) in 0 of 2 (docs/BENCHMARKS.md, "Runs of 2026-12-04, morning")
        // the full rates again since 2026-12-05: the prober now costs about half of what it did then and kept up in
        // every window (16,014-16,048 done); against the 10:27 full run the TCP ratio read -0.8 to +6.3 % in five
        // runs at the full rates and +8.7 to +20.5 % in three at three quarters, both ratios within 10 % in 4 of 5
        // against 1 of 3 (docs/BENCHMARKS.md, "Runs of 2026-12-05, late morning")
        tcpTargets = tcpTargets != null ? tcpTargets : 16_000;
        httpTargets = httpTargets != null ? httpTargets : 8_000;
        windowSeconds = Flags.orDefault(windowSeconds, isShort, 20, 6);
        warmupMaxSeconds = Flags.orDefault(warmupMaxSeconds, isShort, 90, 50);
        warmupRule = warmupRule != null ? warmupRule : isShort ? WarmupGate.Rule.NOT_RISING : WarmupGate.Rule.STABLE;
        // the short mode waits for quieter compilers than the full one (2026-12-05, "Runs of 2026-12-05, day"): at 20
        // ms/s its TCP warm-ups settled after 22-23 s with the rates still falling and the compilers at 17.5 ms/s, which
        // then used 11-14 % of the window's CPU, and one TCP ratio of two read 19.5 % above the full run's; at 10 ms/s
        // the TCP warm-up runs to its budget (43 s) and both ratios were within 10 % in four runs of four (105-118 s);
        // on a slower VM state later that day in one of three, its compilers still busy when the budget ran out
        warmupJitMillis = warmupJitMillis != null ? warmupJitMillis : isShort ? 10.0 : 20.0;
        Flags.inRange("--warmup-jit-ms-per-s", warmupJitMillis, 0, 2_000);
        // both modes read the compilers by their CPU and leave it out of the window since 2026-12-05: the full mode's
        // elapsed reading counts a compilation only once it ends, so its TCP warm-up of 00:50 that day settled after
        // 9 s at "12.2 ms/s" while the compiler threads then used 41 ms of CPU a second, 9.9 % of the window's CPU
        // (docs/BENCHMARKS.md, "Runs of 2026-12-05")
        windowWithoutJit = windowWithoutJit != null ? windowWithoutJit : true;
        warmupJit = warmupJit != null ? warmupJit : ThroughputPhase.JitSource.CPU;
    }

    /** Fills in and checks the protocols' order (after {@link #defaults}). */
    public void order() {
        // HTTP first in the short mode (2026-12-03, 17:52-18:24 UTC, three runs against two TCP-first ones) gave HTTP a
        // longer warm-up but did not settle it either (JIT 248-350 ms/s at its 41-42 s bound), and TCP, measured second
        // on a path HTTP had warmed, read 15 % above the full run in two of the three: both orders stay in the flag
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
                // each warm-up gets what the budget leaves after the steps that follow it (2026-12-03, 15:29: a TCP
                // warm-up at its 50 s bound and an HTTP one of 25.6 s made a run of 126 s)
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
                // one HAProxy at a time, as in the full mode: the short mode's two HAProxies measured together
                // overloaded the farm on the VM of 2026-12-03 (HTTP checks timed out, so HAProxy read cheap); the
                // short mode reads each over 4 s (tens of thousands of checks) to stay in its budget
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
