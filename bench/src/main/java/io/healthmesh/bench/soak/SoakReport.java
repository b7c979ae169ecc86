package io.healthmesh.bench.soak;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The soak's summary as markdown (for docs/BENCHMARKS.md) and the plot's title line. */
public final class SoakReport {

    private SoakReport() {
    }

    /** One line: the run's shape and its verdict. */
    public static String title(SoakPlan plan, boolean passed) {
        return String.format(Locale.ROOT, "soak: %,d targets (%d flapping) at %.1f s, %d min, restarts every %d s: %s",
                plan.targets(), plan.flapping(), plan.intervalMs() / 1000.0, plan.duration().toMinutes(),
                plan.restartEvery().toSeconds(), passed ? "PASS" : "FAIL");
    }

    /** The summary of a judged run. */
    public static String summary(SoakPlan plan, SoakBounds bounds, List<SoakSample> samples,
                                 GrowthVerdict.Result verdict, List<String> problems, String machine, Path csv,
                                 Path svg) {
        StringBuilder md = new StringBuilder();
        boolean passed = verdict.passed() && problems.isEmpty();
        md.append("### ").append(title(plan, passed)).append("\n\n");
        md.append(String.format(Locale.ROOT, "- plan: `--targets %d --flapping %d --interval %ds --duration %dm "
                        + "--sample-every %ds --restart-every %ds --warmup %ds --role-heap %s`%n", plan.targets(),
                plan.flapping(), plan.intervalMs() / 1000, plan.duration().toMinutes(), plan.sampleEvery().toSeconds(),
                plan.restartEvery().toSeconds(), plan.warmup().toSeconds(), plan.roleHeap()));
        md.append("- machine: ").append(machine).append('\n');
        md.append("- load average (1 min) over the run: ").append(load(samples)).append('\n');
        md.append("- restarts: ").append(restarts(samples)).append('\n');
        md.append("- series: `").append(csv).append("`, plot: `").append(svg).append("`\n\n");
        md.append("| role | lifetimes |");
        for (RoleMetric m : RoleMetric.values()) {
            md.append(' ').append(m.title()).append(m.unit().isEmpty() ? "" : " (" + m.unit() + ")").append(" |");
        }
        md.append("\n|---|---|").append("---|".repeat(RoleMetric.values().length)).append('\n');
        for (SoakRole role : SoakRole.values()) {
            List<List<SoakSample>> lifetimes = GrowthVerdict.lifetimes(samples, role);
            md.append("| ").append(role.command()).append(" | ").append(lifetimes.size());
            for (RoleMetric m : RoleMetric.values()) {
                md.append(" | ").append(range(samples, role, m, bounds));
            }
            md.append(" |\n");
        }
        md.append("\nEach cell: the lowest and highest value sampled after a warm-up of ")
                .append(bounds.warmup().toSeconds()).append(" s in any lifetime.\n\n");
        md.append("Verdict: **").append(passed ? "PASS" : "FAIL").append("**\n\n");
        verdict.judged().forEach(line -> md.append("- ").append(line).append('\n'));
        if (!verdict.failures().isEmpty() || !problems.isEmpty()) {
            md.append("\nFailures:\n\n");
            verdict.failures().forEach(line -> md.append("- ").append(line).append('\n'));
            problems.forEach(line -> md.append("- ").append(line).append('\n'));
        }
        return md.toString();
    }

    private static String range(List<SoakSample> samples, SoakRole role, RoleMetric metric, SoakBounds bounds) {
        double low = Double.MAX_VALUE;
        double high = -1;
        for (List<SoakSample> life : GrowthVerdict.lifetimes(samples, role)) {
            double start = life.get(0).seconds();
            for (SoakSample s : life) {
                double v = s.facts(role).value(metric);
                if (v >= 0 && s.seconds() >= start + bounds.warmup().toSeconds()) {
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                }
            }
        }
        return high < 0 ? "-" : String.format(Locale.ROOT, metric.unit().isEmpty() ? "%.0f-%.0f" : "%.1f-%.1f", low,
                high);
    }

    private static String load(List<SoakSample> samples) {
        double[] loads = samples.stream().mapToDouble(SoakSample::load1).filter(l -> l >= 0).sorted().toArray();
        if (loads.length == 0) {
            return "unknown";
        }
        return String.format(Locale.ROOT, "%.2f lowest, %.2f median, %.2f highest", loads[0],
                loads[loads.length / 2], loads[loads.length - 1]);
    }

    private static String restarts(List<SoakSample> samples) {
        List<String> seen = new ArrayList<>();
        for (SoakSample s : samples) {
            if (!s.restart().isEmpty()) {
                seen.add(String.format(Locale.ROOT, "%s before %.0f s", s.restart(), s.seconds()));
            }
        }
        return seen.isEmpty() ? "none" : seen.stream().collect(Collectors.joining(", "));
    }
}
