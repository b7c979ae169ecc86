package io.healthmesh.bench.run;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Probe throughput of one prober (in its child JVM) for one protocol: applies {@code targets} definitions at
 * {@code interval}, waits until the rate has ramped up and the prober's JIT has settled ({@link WarmupGate}, bounded),
 * then measures over a window the results that reached
 * Kafka, the prober's CPU time and the scheduling lags; then deletes the definitions and waits for the results
 * to stop.
 */
public final class ThroughputPhase {

    private static final Logger LOG = LoggerFactory.getLogger(ThroughputPhase.class);

    /**
     * @param offeredPerSecond probes per second the schedule asks for ({@code targets / interval})
     * @param achievedPerSecond results per second that reached Kafka in the window
     * @param proberCores CPU time of the prober JVM per second of the window (1.0 = one core busy)
     * @param systemShare the part of that CPU time spent in the kernel (system calls: connect, close, epoll, send)
     * @param kernel SYNs dropped by full accept queues and SYNs retransmitted on the machine during the window
     */
    public record Figure(Protocol protocol, int targets, int intervalMs, double offeredPerSecond,
                         double achievedPerSecond, double proberCores, long failures, Map<String, Long> failuresByOutcome,
                         double lagP50Micros,
                         double lagP99Micros, double lagMaxMicros, double windowSeconds, double systemShare,
                         KernelTcpCounters kernel, String warmup) {

        /** Probes per second per CPU core of the prober. */
        public double perCore() {
            return achievedPerSecond / proberCores;
        }

        /** Prober CPU time per probe, publishing included, in microseconds. */
        public double cpuMicrosPerProbe() {
            return proberCores * 1e6 / achievedPerSecond;
        }
    }

    /**
     * When a warm-up at full rate ends: once a {@link WarmupGate} with these parameters settles, sampled every
     * second, or at {@code max} at the latest.
     *
     * @param stableRates consecutive probes-per-CPU-second rates that must agree
     * @param span seconds each rate covers
     * @param tolerance their largest relative spread
     * @param maxCompileMillisPerSecond the most JIT compilation per second over them
     */
    public record Warmup(Duration max, int stableRates, int span, double tolerance, double maxCompileMillisPerSecond,
                         WarmupGate.Rule rule, JitSource jitSource, boolean rampInGate) {

        /** The full mode's: the rates stable, the JIT's elapsed compilation time, the ramp-up awaited first. */
        public Warmup(Duration max, int stableRates, int span, double tolerance, double maxCompileMillisPerSecond) {
            this(max, stableRates, span, tolerance, maxCompileMillisPerSecond, WarmupGate.Rule.STABLE,
                    JitSource.ELAPSED, false);
        }

        /**
         * @param minResultsPerSecond with {@code rampInGate}, the result rate the gate's spans must reach (the
         *     ramp-up's own condition); ignored otherwise
         */
        public WarmupGate gate(double minResultsPerSecond) {
            return new WarmupGate(stableRates, span, tolerance, maxCompileMillisPerSecond, rule,
                    jitSource == JitSource.ELAPSED ? "JIT" : "JIT CPU", rampInGate ? minResultsPerSecond : 0);
        }
    }

    /** Which JIT time the warm-up reads. */
    public enum JitSource {
        /** The compilers' elapsed compilation time ({@code CompilationMXBean}, written by the worker). */
        ELAPSED,
        /** The compiler threads' CPU time ({@code /proc/<pid>/task}): what the JIT adds to the prober's CPU. */
        CPU
    }

    private ThroughputPhase() {
    }

    public static Figure run(ChildJvm prober, TargetLoader loader, ResultTap results, List<FarmTarget> farm,
                             Protocol protocol, int targets, int intervalMs, Warmup warmup, Duration window,
                             PhaseTimes times) throws InterruptedException {
        return run(prober, loader, results, farm, protocol, targets, intervalMs, warmup, window, times, false);
    }

    /**
     * As above; with {@code withoutJit}, the CPU time the prober's JIT compiler threads used in the window is left
     * out of its CPU figures (the estimate of the steady state, whose compilers are idle; the
     * warm-up line says how much was left out).
     */
    public static Figure run(ChildJvm prober, TargetLoader loader, ResultTap results, List<FarmTarget> farm,
                             Protocol protocol, int targets, int intervalMs, Warmup warmup, Duration window,
                             PhaseTimes times, boolean withoutJit) throws InterruptedException {
        List<TargetSpec> specs = FarmSpecs.over(farm, targets, "tp-" + protocol.name().toLowerCase(), intervalMs,
                Math.min(intervalMs, 1_000), 3, 3);
        double offered = targets * 1000.0 / intervalMs;
        loader.apply(specs);
        if (!warmup.rampInGate()) {
            awaitRate(results, offered * 0.9, Duration.ofMillis(Math.max(3 * intervalMs, 5_000) + 10_000));
            times.mark(protocol + " ramp-up");
        }
        // the JIT compiles the hot paths in the first seconds at full rate: keep that out of the window
        String warmedUp = warmUp(prober, results, warmup, offered * 0.9, protocol + " " + targets + " targets");
        times.mark(protocol + " warm-up");
        results.reset();
        long jitBefore = prober.compilerCpuMillis();
        long cpuBefore = prober.cpuNanos();
        long systemBefore = prober.systemNanos();
        KernelTcpCounters kernelBefore = KernelTcpCounters.read();
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(window.toNanos());
        long cpu = prober.cpuNanos() - cpuBefore;
        long jitAfter = prober.compilerCpuMillis();
        String jitLine = jitInWindow(jitBefore, jitAfter, cpu);
        if (withoutJit && jitBefore >= 0 && jitAfter >= jitBefore) {
            cpu -= TimeUnit.MILLISECONDS.toNanos(jitAfter - jitBefore);
            jitLine += ", left out of the CPU figures";
        }
        long system = prober.systemNanos() - systemBefore;
        KernelTcpCounters kernel = KernelTcpCounters.read().minus(kernelBefore);
        long elapsed = System.nanoTime() - start;
        ResultTap.Window w = results.window();
        times.mark(protocol + " window");
        loader.delete(specs.stream().map(TargetSpec::id).toList());
        awaitRate(results, -1, Duration.ofMillis(2L * intervalMs + 5_000));
        times.mark(protocol + " drain");
        Figure figure = new Figure(protocol, targets, intervalMs, offered, w.results() * 1e9 / elapsed,
                (double) cpu / elapsed, w.failures(), w.failuresByOutcome(), LongSamples.percentile(w.lagMicrosSorted(), 50),
                LongSamples.percentile(w.lagMicrosSorted(), 99), LongSamples.percentile(w.lagMicrosSorted(), 100),
                elapsed / 1e9, cpu == 0 ? 0 : (double) system / cpu, kernel, warmedUp + jitLine);
        LOG.info("throughput {}", figure);
        return figure;
    }

    /** What the JIT compiler threads took of the window's CPU, for the warm-up line. */
    static String jitInWindow(long jitBeforeMillis, long jitAfterMillis, long cpuNanos) {
        if (jitBeforeMillis < 0 || jitAfterMillis < 0 || cpuNanos <= 0) {
            return "";
        }
        long jit = jitAfterMillis - jitBeforeMillis;
        return String.format(java.util.Locale.ROOT, "; in the window the JIT compiler threads used %d ms of CPU "
                + "(%.1f%% of the prober's)", jit, 100.0 * jit * 1e6 / cpuNanos);
    }

    /**
     * Runs at full rate until the JIT has settled (see {@link WarmupGate}) or {@code warmup.max()} has passed,
     * sampling the results received, the prober's CPU and its JIT time every second; returns the report line
     * saying how long that took and why it stopped.
     */
    static String warmUp(ChildJvm prober, ResultTap results, Warmup warmup, double rampedUpPerSecond, String what)
            throws InterruptedException {
        WarmupGate gate = warmup.gate(rampedUpPerSecond);
        long start = System.nanoTime();
        long deadline = start + warmup.max().toNanos();
        long next = start;
        while (true) {
            WarmupGate.Sample sample = new WarmupGate.Sample(System.nanoTime(), results.total(), prober.cpuNanos(),
                    warmup.jitSource() == JitSource.ELAPSED ? prober.compilationMillis() : prober.compilerCpuMillis());
            LOG.debug("warm-up sample {} (JIT elapsed {} ms, compiler threads' CPU {} ms)", sample,
                    prober.compilationMillis(), prober.compilerCpuMillis());
            boolean settled = gate.offer(sample);
            if (settled || System.nanoTime() - deadline >= 0) {
                break;
            }
            next += TimeUnit.SECONDS.toNanos(1);
            TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
        }
        String line = gate.describe(what);
        LOG.info("{}", line);
        return line;
    }

    /**
     * Waits, in 500 ms steps, until the result rate is at least {@code atLeast} per second, or (with a negative
     * {@code atLeast}) until no result arrives for a whole step; gives up quietly at {@code within}.
     */
    static void awaitRate(ResultTap results, double atLeast, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            results.reset();
            TimeUnit.MILLISECONDS.sleep(500);
            ResultTap.Window w = results.window();
            if (atLeast < 0 ? w.results() == 0 : w.perSecond() >= atLeast) {
                return;
            }
        }
        LOG.warn("result rate did not reach {} /s within {}", atLeast < 0 ? "0" : String.format("%.0f", atLeast),
                within);
    }
}
