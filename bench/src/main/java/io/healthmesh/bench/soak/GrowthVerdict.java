package io.healthmesh.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The soak's verdict over its samples, with no I/O: growth per process lifetime, level drift from one lifetime to the
 * next, consumer lag (each rise above its bound drained within a warm-up), and the state events (no false one; at
 * least one flip of a flapping target, or the run could not have seen a false one either). A restart starts a new
 * lifetime (a new pid), so the drop and the climb of a restart are never read as growth.
 */
public final class GrowthVerdict {

    /**
     * What the verdict found.
     *
     * @param failures one sentence per bound broken; empty when the run passed
     * @param judged one line per series: what was judged and how close it came to its bound
     */
    public record Result(List<String> failures, List<String> judged) {

        public Result {
            failures = List.copyOf(failures);
            judged = List.copyOf(judged);
        }

        public boolean passed() {
            return failures.isEmpty();
        }
    }

    private final SoakBounds bounds;

    public GrowthVerdict(SoakBounds bounds) {
        this.bounds = requireNonNull(bounds, "bounds");
    }

    /** Judges {@code samples}, in time order. */
    public Result judge(List<SoakSample> samples) {
        List<String> failures = new ArrayList<>();
        List<String> judged = new ArrayList<>();
        if (samples.isEmpty()) {
            return new Result(List.of("no samples: the run recorded nothing"), List.of());
        }
        for (SoakRole role : SoakRole.values()) {
            List<List<SoakSample>> lifetimes = lifetimes(samples, role);
            for (RoleMetric metric : RoleMetric.values()) {
                if (metric.judgedForGrowth()) {
                    judgeGrowth(role, metric, lifetimes, failures, judged);
                }
            }
            judgeTransientFds(role, samples, failures, judged);
            judgeRssCeiling(role, samples, failures, judged);
            judgeLag(role, samples, failures, judged);
        }
        judgeEvents(samples.get(samples.size() - 1), failures, judged);
        return new Result(failures, judged);
    }

    /** The samples split where {@code role}'s pid changes, each part one process lifetime. */
    static List<List<SoakSample>> lifetimes(List<SoakSample> samples, SoakRole role) {
        List<List<SoakSample>> lifetimes = new ArrayList<>();
        long pid = Long.MIN_VALUE;
        for (SoakSample s : samples) {
            long now = s.facts(role).pid();
            if (now != pid) {
                lifetimes.add(new ArrayList<>());
                pid = now;
            }
            lifetimes.get(lifetimes.size() - 1).add(s);
        }
        return lifetimes;
    }

    private void judgeGrowth(SoakRole role, RoleMetric metric, List<List<SoakSample>> lifetimes,
                             List<String> failures, List<String> judged) {
        String name = role.command() + " " + metric.title();
        SoakBounds.Growth bound = bounds.growth().get(metric);
        double fillsByDesign = metric == RoleMetric.RSS ? bounds.fillsByDesignMib(role) : 0;
        double firstLevel = Double.NaN;
        int firstLifetime = 0;
        int count = 0;
        double worstRise = Double.NEGATIVE_INFINITY;
        double worstAllowed = 0;
        for (int i = 0; i < lifetimes.size(); i++) {
            List<SoakSample> life = lifetimes.get(i);
            double start = life.get(0).seconds();
            List<double[]> window = new ArrayList<>();
            for (SoakSample s : life) {
                double v = s.facts(role).value(metric);
                if (s.seconds() >= start + bounds.warmup().toMillis() / 1000.0 && v >= 0) {
                    window.add(new double[] {s.seconds(), v});
                }
            }
            if (window.size() < bounds.minWindowSamples()) {
                continue;
            }
            count++;
            double span = window.get(window.size() - 1)[0] - window.get(0)[0];
            double rise = slope(window) * span;
            double level = median(window);
            double allowed = bound.allowed(level) + fillsByDesign;
            if (rise - allowed > worstRise - worstAllowed) {
                worstRise = rise;
                worstAllowed = allowed;
            }
            if (rise > allowed) {
                failures.add(String.format(Locale.ROOT,
                        "%s grew by %.1f%s over %.1f min of lifetime %d (pid %d, fitted line after warm-up); "
                                + "allowed %.1f%s (max(%.0f, %.0f %% of %.1f)%s)", name, rise, unit(metric),
                        span / 60, i + 1, life.get(0).facts(role).pid(), allowed, unit(metric), bound.absolute(),
                        bound.relative() * 100, level, fillsByDesign > 0 ? String.format(Locale.ROOT,
                                " + %.0f MiB of RocksDB's budget", fillsByDesign) : ""));
            }
            if (Double.isNaN(firstLevel)) {
                firstLevel = level;
                firstLifetime = i + 1;
            } else if (level - firstLevel > bound.allowed(firstLevel)) {
                failures.add(String.format(Locale.ROOT,
                        "%s settled at %.1f%s in lifetime %d, %.1f%s above lifetime %d's %.1f%s; allowed %.1f%s",
                        name, level, unit(metric), i + 1, level - firstLevel, unit(metric), firstLifetime,
                        firstLevel, unit(metric), bound.allowed(firstLevel), unit(metric)));
            }
        }
        if (count == 0) {
            failures.add(name + ": no lifetime had " + bounds.minWindowSamples() + " samples after its warm-up of "
                    + bounds.warmup().toSeconds() + " s (lengthen the run or sample more often)");
            return;
        }
        judged.add(String.format(Locale.ROOT, "%s: %d of %d lifetimes judged; largest fitted rise %+.1f%s "
                + "(allowed %.1f%s)", name, count, lifetimes.size(), worstRise, unit(metric), worstAllowed, unit(metric)));
    }

    /**
     * RSS never above {@link SoakBounds#rssCeilingMib}: the aggregator's may rise by its RocksDB budget within a
     * lifetime (the cache and memtables fill from empty after every start), so a native leak there is caught by this
     * ceiling rather than by the growth line.
     */
    private void judgeRssCeiling(SoakRole role, List<SoakSample> samples, List<String> failures,
                                 List<String> judged) {
        String name = role.command() + " RSS ceiling";
        int ceiling = bounds.rssCeilingMib(role);
        double worst = -1;
        double worstAt = 0;
        for (SoakSample s : samples) {
            double rss = s.facts(role).rssMib();
            if (rss > worst) {
                worst = rss;
                worstAt = s.seconds();
            }
        }
        if (worst < 0) {
            return; // no readable sample: the growth bound reports the series as not judged
        }
        String parts = String.format(Locale.ROOT, "heap %d%s + %d MiB for the JVM", bounds.roleHeapMib(),
                bounds.fillsByDesignMib(role) > 0 ? " + RocksDB " + bounds.fillsByDesignMib(role) : "",
                SoakBounds.JVM_OVERHEAD_MIB);
        if (worst > ceiling) {
            failures.add(String.format(Locale.ROOT, "%s: %.1f MiB at %.0f s, above %d MiB (%s)", name, worst, worstAt,
                    ceiling, parts));
        }
        judged.add(String.format(Locale.ROOT, "%s: largest %.1f MiB (allowed %d MiB: %s)", name, worst, ceiling,
                parts));
    }

    /**
     * Descriptors open at a sample but not at the previous one come and go with the work in flight: a probe holds a
     * socket from its connect to its verdict, and a prober starved of CPU (or resuming from a pause) has more of them
     * open at once. They are bounded by what the schedule can have in flight ({@link SoakBounds#transientFdsAllowed}),
     * not by a growth line; what a process leaks stays open and is judged among the held descriptors. Samples within a
     * lifetime's warm-up are left out: a starting JVM opens its jars and clients between its first two samples.
     */
    private void judgeTransientFds(SoakRole role, List<SoakSample> samples, List<String> failures,
                                   List<String> judged) {
        String name = role.command() + " transient descriptors";
        int allowed = bounds.transientFdsAllowed(role);
        int count = 0;
        int worst = -1;
        double worstAt = 0;
        for (List<SoakSample> life : lifetimes(samples, role)) {
            double judgedFrom = life.get(0).seconds() + bounds.warmup().toMillis() / 1000.0;
            for (SoakSample s : life) {
                int transientFds = s.facts(role).transientFds();
                if (transientFds < 0 || s.seconds() < judgedFrom) {
                    continue;
                }
                count++;
                if (transientFds > worst) {
                    worst = transientFds;
                    worstAt = s.seconds();
                }
            }
        }
        if (count == 0) {
            return; // a file from before descriptors were counted as held and open
        }
        if (worst > allowed) {
            failures.add(String.format(Locale.ROOT, "%s: %,d open at %.0f s that were not open at the previous "
                    + "sample; allowed %,d (%s)", name, worst, worstAt, allowed, role == SoakRole.PROBER
                    ? "the probes it can have in flight and " + SoakBounds.TRANSIENT_SLACK + " more"
                    : SoakBounds.TRANSIENT_SLACK + ": it has no probes"));
        }
        judged.add(String.format(Locale.ROOT, "%s: %d samples; largest %,d (allowed %,d)", name, count, worst,
                allowed));
    }

    /**
     * A group's committed lag may rise above the bound (a restart's backlog, a role paused by a loaded machine), but
     * every such rise must drain back within the bound's allowance ({@link SoakBounds#drainAllowed}: the warm-up,
     * longer only on a machine loaded past {@link SoakBounds#LOAD_PER_CORE} per core) from the sample that first saw
     * it, and the lag must be within the bound at the end. A role that cannot keep up never drains, or drains slower.
     */
    private void judgeLag(SoakRole role, List<SoakSample> samples, List<String> failures, List<String> judged) {
        String name = role.command() + " group lag";
        int count = 0;
        int excursions = 0;
        long worst = -1;
        double closest = 0; // the rise that came closest to its allowance: how long it took, and what it was allowed
        double closestAllowed = 0;
        boolean drained = false;
        double above = Double.NaN; // when the current rise was first seen; NaN while within the bound
        long peak = 0;
        double peakLoad = -1;
        SoakSample last = null;
        for (SoakSample s : samples) {
            long lag = s.lag(role);
            if (lag < 0) {
                continue;
            }
            count++;
            last = s;
            worst = Math.max(worst, lag);
            if (lag > bounds.maxLag()) {
                if (Double.isNaN(above)) {
                    above = s.seconds();
                    peak = 0;
                    peakLoad = -1;
                    excursions++;
                }
                peak = Math.max(peak, lag);
                peakLoad = Math.max(peakLoad, s.load1());
            } else if (!Double.isNaN(above)) {
                double took = s.seconds() - above;
                double allowed = bounds.drainAllowed(Math.max(peakLoad, s.load1()));
                if (!drained || took - allowed > closest - closestAllowed) {
                    closest = took;
                    closestAllowed = allowed;
                    drained = true;
                }
                if (took > allowed) {
                    failures.add(String.format(Locale.ROOT, "%s stayed above %,d records for %.0f s from %.0f s "
                            + "(peak %,d); allowed %.0f s (the warm-up, at a load average up to %.1f)", name,
                            bounds.maxLag(), took, above, peak, allowed, Math.max(peakLoad, s.load1())));
                }
                above = Double.NaN;
            }
        }
        if (count == 0) {
            failures.add(name + ": never readable");
            return;
        }
        if (!Double.isNaN(above)) {
            failures.add(String.format(Locale.ROOT, "%s was %,d records at the end (%.0f s), above the bound of %,d "
                    + "since %.0f s (peak %,d)", name, last.lag(role), last.seconds(), bounds.maxLag(), above, peak));
        }
        judged.add(excursions == 0
                ? String.format(Locale.ROOT, "%s: %d samples; largest %,d records; never above %,d", name, count,
                        worst, bounds.maxLag())
                : !drained
                ? String.format(Locale.ROOT, "%s: %d samples; largest %,d records; %d rises above %,d, none drained",
                        name, count, worst, excursions, bounds.maxLag())
                : String.format(Locale.ROOT, "%s: %d samples; largest %,d records; %d rises above %,d, the "
                        + "closest to its allowance back within it after %.0f s (allowed %.0f s)", name, count, worst,
                        excursions, bounds.maxLag(), closest, closestAllowed));
    }

    private static void judgeEvents(SoakSample last, List<String> failures, List<String> judged) {
        if (last.falseEvents() > 0) {
            failures.add(last.falseEvents() + " false state events: a steady target was reported other than HEALTHY "
                    + "after it had been decided HEALTHY (the run's log names them)");
        }
        if (last.flappingFlips() == 0) {
            failures.add("no flapping target flipped: the run could not have detected a false event either");
        }
        judged.add(String.format(Locale.ROOT, "state events: %,d read, %d false, %d flips of flapping targets, "
                + "%d stale events", last.events(), last.falseEvents(), last.flappingFlips(), last.staleEvents()));
    }

    /** The least-squares slope of {@code points} ({x, y} pairs), 0 when every x is the same. */
    static double slope(List<double[]> points) {
        double mx = points.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double my = points.stream().mapToDouble(p -> p[1]).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        for (double[] p : points) {
            sxy += (p[0] - mx) * (p[1] - my);
            sxx += (p[0] - mx) * (p[0] - mx);
        }
        return sxx == 0 ? 0 : sxy / sxx;
    }

    private static double median(List<double[]> points) {
        double[] ys = points.stream().mapToDouble(p -> p[1]).sorted().toArray();
        int n = ys.length;
        return n % 2 == 1 ? ys[n / 2] : (ys[n / 2 - 1] + ys[n / 2]) / 2;
    }

    private static String unit(RoleMetric metric) {
        return metric.unit().isEmpty() ? "" : " " + metric.unit();
    }
}
