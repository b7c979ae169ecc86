package io.healthmesh.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides when a warm-up is over: fed one sample per second (results so far, the worker's CPU time so far, its JIT
 * time so far), it says "settled" once the last {@code stableRates} rates of probes per CPU-second (each over the
 * last {@code span} seconds, to smooth the consumer's fetch boundaries) pass the {@link Rule} with
 * {@code tolerance} and the JIT took at most {@code maxCompileMillisPerSecond} per second over the same seconds.
 * The caller bounds the warm-up in time; {@link #describe} says why it stopped either way.
 */
public final class WarmupGate {

    /** What the last rates must show. */
    public enum Rule {
        /** They lie within the tolerance of each other: (max - min) / min (the full mode's rule). */
        STABLE,
        /**
         * None of them exceeds the oldest by more than the tolerance: the rate stopped rising. The JIT only ever
         * makes the prober cheaper per probe, so once it is quiet and the rate no longer rises the code is as fast
         * as it gets; a rate that falls is the machine (another process, a GC), which a window would measure
         * anyway, and waiting for it to stop varying only lengthens the warm-up on a busy machine.
         */
        NOT_RISING
    }

    /**
     * One reading: a monotonic clock, results received, the worker's CPU time and its JIT time (the compilers'
     * elapsed time or their threads' CPU time, see {@link JitActivity}), all cumulative.
     */
    public record Sample(long nanos, long results, long cpuNanos, long compileMillis) {
    }

    private final int stableRates;
    private final int span;
    private final double tolerance;
    private final double maxCompileMillisPerSecond;
    private final Rule rule;
    private final String jitLabel;
    private final double minResultsPerSecond;
    private final List<Sample> samples = new ArrayList<>();

    /**
     * @param stableRates consecutive rates that must agree (e.g. 3)
     * @param span seconds each rate covers (e.g. 2)
     * @param tolerance largest relative spread of those rates, (max - min) / min (e.g. 0.03)
     * @param maxCompileMillisPerSecond most JIT compilation per second over them (e.g. 10 = 1 % of a core)
     */
    public WarmupGate(int stableRates, int span, double tolerance, double maxCompileMillisPerSecond) {
        this(stableRates, span, tolerance, maxCompileMillisPerSecond, Rule.STABLE, "JIT");
    }

    /**
     * @param rule what the last rates must show
     * @param jitLabel what the samples' JIT time is, for {@link #describe} (e.g. "JIT" or "JIT CPU")
     */
    public WarmupGate(int stableRates, int span, double tolerance, double maxCompileMillisPerSecond, Rule rule,
                      String jitLabel) {
        this(stableRates, span, tolerance, maxCompileMillisPerSecond, rule, jitLabel, 0);
    }

    /**
     * @param minResultsPerSecond results per second the last rates must all reach (0: any), so that a gate that
     *     starts sampling while the load still ramps up cannot settle before it is at full rate
     */
    public WarmupGate(int stableRates, int span, double tolerance, double maxCompileMillisPerSecond, Rule rule,
                      String jitLabel, double minResultsPerSecond) {
        if (minResultsPerSecond < 0) {
            throw new IllegalArgumentException("minResultsPerSecond: " + minResultsPerSecond + " (expected: >= 0)");
        }
        this.minResultsPerSecond = minResultsPerSecond;
        if (stableRates < 2 || span < 1 || tolerance <= 0 || maxCompileMillisPerSecond < 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "stableRates %d (expected: >= 2), span %d "
                    + "(expected: >= 1), tolerance %s (expected: > 0), maxCompileMillisPerSecond %s "
                    + "(expected: >= 0)", stableRates, span, tolerance, maxCompileMillisPerSecond));
        }
        this.stableRates = stableRates;
        this.span = span;
        this.tolerance = tolerance;
        this.maxCompileMillisPerSecond = maxCompileMillisPerSecond;
        this.rule = java.util.Objects.requireNonNull(rule, "rule");
        this.jitLabel = java.util.Objects.requireNonNull(jitLabel, "jitLabel");
    }

    /** Adds a sample; true when the warm-up has settled with it. */
    public boolean offer(Sample sample) {
        samples.add(sample);
        return settled();
    }

    /** True when the last rates agree and the JIT is quiet. */
    public boolean settled() {
        int needed = stableRates + span;   // stableRates rates, each over span intervals
        if (samples.size() < needed) {
            return false;
        }
        double[] rates = lastRates();
        for (double r : rates) {
            if (!(r > 0)) {
                return false;
            }
        }
        if (minResultsPerSecond > 0 && lowestResultsPerSecond() < minResultsPerSecond) {
            return false;
        }
        return deviation(rates) <= tolerance && compileMillisPerSecond() <= maxCompileMillisPerSecond;
    }

    /** What the rule compares with the tolerance: the spread (STABLE) or the largest rise over the oldest rate. */
    private double deviation(double[] rates) {
        double min = java.util.Arrays.stream(rates).min().orElse(Double.NaN);
        double max = java.util.Arrays.stream(rates).max().orElse(Double.NaN);
        return rule == Rule.STABLE ? (max - min) / min : (max - rates[0]) / rates[0];
    }

    /** Probes per CPU-second of the last {@code stableRates} rates, oldest first. */
    double[] lastRates() {
        double[] rates = new double[stableRates];
        int last = samples.size() - 1;
        for (int i = 0; i < stableRates; i++) {
            Sample to = samples.get(last - stableRates + 1 + i);
            Sample from = samples.get(last - stableRates + 1 + i - span);
            long cpu = to.cpuNanos() - from.cpuNanos();
            rates[i] = cpu <= 0 ? Double.NaN : (to.results() - from.results()) * 1e9 / cpu;
        }
        return rates;
    }

    /** The lowest results per second of the spans the last rates cover. */
    double lowestResultsPerSecond() {
        double lowest = Double.POSITIVE_INFINITY;
        int last = samples.size() - 1;
        for (int i = 0; i < stableRates; i++) {
            Sample to = samples.get(last - stableRates + 1 + i);
            Sample from = samples.get(last - stableRates + 1 + i - span);
            double seconds = (to.nanos() - from.nanos()) / 1e9;
            lowest = Math.min(lowest, seconds <= 0 ? 0 : (to.results() - from.results()) / seconds);
        }
        return lowest;
    }

    /** JIT compilation per second over the seconds the last rates cover (NaN when the worker does not report it). */
    double compileMillisPerSecond() {
        Sample to = samples.get(samples.size() - 1);
        Sample from = samples.get(Math.max(0, samples.size() - 1 - stableRates - span + 1));
        if (to.compileMillis() < 0 || from.compileMillis() < 0) {
            return Double.NaN;
        }
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        return seconds <= 0 ? Double.NaN : (to.compileMillis() - from.compileMillis()) / seconds;
    }

    /** A report line: how long the warm-up took and why it stopped. */
    public String describe(String what) {
        if (samples.size() < 2) {
            return what + ": warm-up not sampled";
        }
        double seconds = (samples.get(samples.size() - 1).nanos() - samples.get(0).nanos()) / 1e9;
        Sample first = samples.get(0);
        Sample last = samples.get(samples.size() - 1);
        String compiled = first.compileMillis() < 0 || last.compileMillis() < 0 ? jitLabel + " time not reported"
                : String.format(Locale.ROOT, "%s %d ms during it", jitLabel.equals("JIT") ? "JIT compiled"
                : jitLabel, last.compileMillis() - first.compileMillis());
        if (samples.size() < stableRates + span) {
            return String.format(Locale.ROOT, "%s: warm-up %.0f s, stopped at its upper bound before %d samples (%s)",
                    what, seconds, stableRates + span, compiled);
        }
        double[] rates = lastRates();
        StringBuilder r = new StringBuilder();
        for (double rate : rates) {
            r.append(r.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", rate));
        }
        return String.format(Locale.ROOT, "%s: warm-up %.0f s, %s: last probes per CPU-second %s (%s %.1f%%, "
                        + "limit %.0f%%), %s %.1f ms/s over them (limit %.0f); %s", what, seconds,
                settled() ? "settled" : "stopped at its upper bound, not settled", r,
                rule == Rule.STABLE ? "spread" : "rise over the first", 100 * deviation(rates), 100 * tolerance,
                jitLabel, compileMillisPerSecond(), maxCompileMillisPerSecond, compiled);
    }
}
