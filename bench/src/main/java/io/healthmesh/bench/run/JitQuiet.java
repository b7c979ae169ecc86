package io.healthmesh.bench.run;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Waits until the JIT compilers of the JVMs that share the machine have gone quiet: their compiler threads' CPU time
 * ({@link JitActivity.CompilerThreads}), summed over every JVM, at most {@code maxMillisPerSecond} in
 * {@code consecutive} samples in a row. The detection phase waits for this before it flips targets. At its load (a few
 * hundred probes a second) the three JVMs' compilers keep most of a two-core machine busy for the better part of a
 * minute after they start, so flips made then time commits and probes that queue for a core behind the compilers: a
 * cold start, not the steady state a health checker spends its life in (docs/BENCHMARKS.md, "What is measured, and
 * how").
 */
public final class JitQuiet {

    private static final Logger LOG = LoggerFactory.getLogger(JitQuiet.class);

    /** A JVM whose compilers are watched: its name in the report, its compiler threads' CPU so far (ms; -1 unknown). */
    public record Jvm(String name, LongSupplier compilerCpuMillis) {

        public Jvm {
            requireNonNull(name, "name");
            requireNonNull(compilerCpuMillis, "compilerCpuMillis");
        }
    }

    /**
     * @param quiet the compilers stayed within the bound for the samples asked before {@code within} ran out
     * @param waited from the first sample to the verdict
     * @param lastMillisPerSecond each JVM's compiler CPU per second over the last sample (-1 when unreadable)
     */
    public record Outcome(boolean quiet, Duration waited, Map<String, Double> lastMillisPerSecond,
                          double maxMillisPerSecond, int consecutive) {

        /** One sentence for the report. */
        public String describe() {
            StringBuilder each = new StringBuilder();
            lastMillisPerSecond.forEach((name, rate) -> each.append(each.length() == 0 ? "" : ", ").append(name)
                    .append(' ').append(rate < 0 ? "unreadable" : String.format(Locale.ROOT, "%.0f", rate)));
            return quiet
                    ? String.format(Locale.ROOT, "the JIT compilers went quiet (at most %.0f ms of compiler CPU per "
                    + "second over all JVMs in %d samples a second apart) after %.1f s; last second: %s ms/s",
                    maxMillisPerSecond, consecutive, waited.toMillis() / 1000.0, each)
                    : String.format(Locale.ROOT, "the JIT compilers did NOT go quiet within %.1f s (bound %.0f ms/s "
                    + "over all JVMs; last second: %s ms/s): the flips share the cores with compilation",
                    waited.toMillis() / 1000.0, maxMillisPerSecond, each);
        }
    }

    private final List<Jvm> jvms;
    private final KeepingUp.Sleeper sleeper;
    private final LongSupplier nanoTime;

    public JitQuiet(List<Jvm> jvms, KeepingUp.Sleeper sleeper, LongSupplier nanoTime) {
        this.jvms = List.copyOf(jvms);
        if (this.jvms.isEmpty()) {
            throw new IllegalArgumentException("jvms: none to watch");
        }
        this.sleeper = requireNonNull(sleeper, "sleeper");
        this.nanoTime = requireNonNull(nanoTime, "nanoTime");
    }

    /** Samples with the real clock. */
    public static JitQuiet of(List<Jvm> jvms) {
        return new JitQuiet(jvms, pause -> TimeUnit.NANOSECONDS.sleep(pause.toNanos()), System::nanoTime);
    }

    /** The compiler threads of this JVM (the driver: broker, registry, farm and the taps). */
    public static Jvm self(String name) {
        JitActivity.CompilerThreads threads = new JitActivity.CompilerThreads(ProcessHandle.current().pid());
        return new Jvm(name, threads::cpuMillis);
    }

    /**
     * Samples every {@code every} until the compilers' CPU per second, summed over the JVMs, is at most
     * {@code maxMillisPerSecond} in {@code consecutive} samples in a row, or {@code within} has passed: the streak
     * and the bound are {@link KeepingUp}'s, with the compilers' rate since the previous sample as the value read. A
     * JVM whose compiler time cannot be read counts as busy: the gate then runs to its bound and says so.
     */
    public Outcome await(double maxMillisPerSecond, int consecutive, Duration every, Duration within)
            throws InterruptedException {
        if (maxMillisPerSecond < 0 || consecutive < 1) {
            throw new IllegalArgumentException("maxMillisPerSecond " + maxMillisPerSecond + ", consecutive "
                    + consecutive);
        }
        Rates rates = new Rates();
        KeepingUp.Outcome kept = new KeepingUp(rates::next, sleeper, nanoTime)
                .await((long) Math.floor(maxMillisPerSecond), consecutive, every, within);
        return new Outcome(kept.keptUp(), kept.waited(), rates.last, maxMillisPerSecond, consecutive);
    }

    /**
     * The compilers' CPU per second since the previous call, summed over the JVMs and rounded up (-1 on the first call,
     * which has nothing to compare with, and when a JVM cannot be read); each JVM's own rate is kept for the report.
     */
    private final class Rates {

        private long[] before;
        private long at;
        private Map<String, Double> last = new LinkedHashMap<>();
        private long samples;

        long next() {
            long now = nanoTime.getAsLong();
            long[] after = read();
            long[] previous = before;
            double seconds = (now - at) / 1e9;
            before = after;
            at = now;
            if (previous == null) {
                return -1;
            }
            double total = 0;
            boolean readable = seconds > 0;
            last = new LinkedHashMap<>();
            for (int i = 0; i < jvms.size(); i++) {
                if (previous[i] < 0 || after[i] < previous[i] || seconds <= 0) {
                    readable = false;
                    last.put(jvms.get(i).name(), -1.0);
                } else {
                    double rate = (after[i] - previous[i]) / seconds;
                    total += rate;
                    last.put(jvms.get(i).name(), rate);
                }
            }
            // one line in ten at INFO (the rest at DEBUG): the wait can last minutes, and the report gives the last
            // second's figures anyway
            StringBuilder line = new StringBuilder();
            last.forEach((jvm, rate) -> line.append(line.isEmpty() ? "" : ", ").append(jvm).append(' ')
                    .append(String.format(Locale.ROOT, "%.0f", rate)));
            String message = String.format(Locale.ROOT, "JIT compilers, ms of CPU per second: %s (total %.0f)", line,
                    total);
            if (samples++ % 10 == 0) {
                LOG.info(message);
            } else {
                LOG.debug(message);
            }
            return readable ? (long) Math.ceil(total) : -1;
        }
    }

    private long[] read() {
        long[] values = new long[jvms.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = jvms.get(i).compilerCpuMillis().getAsLong();
        }
        return values;
    }
}
