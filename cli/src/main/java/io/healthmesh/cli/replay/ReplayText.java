package io.healthmesh.cli.replay;

import io.healthmesh.replay.ReplayReport;
import io.healthmesh.replay.ReplayResult;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The text form of a replay: a table per target, the totals, fail-open per group, notes and the self-check. */
final class ReplayText {

    private static final String ROW = "%-24s %-14s %5s %5s %6s %6s %8s %6s %8s  %s%n";

    private final PrintWriter out;

    ReplayText(PrintWriter out) {
        this.out = out;
    }

    void print(ReplayResult result, ReplayReport report, boolean check, Duration flapSpan, Duration minOutage) {
        out.printf("replay %s .. %s: %,d results of %d targets; as configured vs %s%n",
                result.window().fromBeginning() ? "(beginning)" : Instant.ofEpochMilli(result.window().fromMs()),
                Instant.ofEpochMilli(result.window().toMs()), result.results(), report.totals().targets(),
                result.alternatives().describe());
        out.printf("(flap: a flip reversed within %s; outage: failures in a row for at least %s)%n%n",
                human(flapSpan.toMillis()), human(minOutage.toMillis()));
        out.printf(ROW, "TARGET", "GROUP", "FLIPS", "ALT", "FLAPS", "ALT", "AVOIDED", "ADDED", "OUTAGES",
                "DETECTION DELAY (as configured -> alternative)");
        for (ReplayReport.TargetRow t : report.targets()) {
            out.printf(ROW, t.targetId(), t.group() == null ? "-" : t.group(), t.flipsConfigured(),
                    t.flipsAlternative(), t.flapsConfigured(), t.flapsAlternative(), t.flapsAvoided(), t.flapsAdded(),
                    t.outages().size(), delays(t.outages()));
        }
        ReplayReport.Totals s = report.totals();
        out.printf(ROW, "total", s.targets() + " targets", s.flipsConfigured(), s.flipsAlternative(),
                s.flapsConfigured(), s.flapsAlternative(), s.flapsAvoided(), s.flapsAdded(), s.outages(),
                s.outages() == 0 ? "" : "detected " + s.detectedConfigured() + " -> " + s.detectedAlternative()
                        + ", mean " + delay(s.meanDelayConfiguredMs()) + " -> " + delay(s.meanDelayAlternativeMs()));
        if (!report.groups().isEmpty()) {
            out.println();
            out.println("time fail-open per group (as configured -> alternative):");
            for (ReplayReport.GroupRow g : report.groups()) {
                out.printf("  %-24s %s -> %s%n", g.group(), human(g.failOpenConfiguredMs()),
                        human(g.failOpenAlternativeMs()));
            }
        }
        if (!result.notes().isEmpty()) {
            out.println();
            result.notes().forEach(n -> out.println("note: " + n));
        }
        if (check) {
            out.println();
            if (result.check().matches()) {
                out.printf("self-check: ok, the run as configured reproduces the aggregator's %d status changes of "
                        + "%d targets one for one%s%s%n", result.check().changes(), result.check().targets(),
                        result.check().groups() == 0 ? "" : ", the " + result.check().groupChanges()
                                + " fail-open changes of " + result.check().groups() + " groups",
                        result.check().maintenanceEvents() == 0 ? "" : ", and the maintenance window of its "
                                + result.check().maintenanceEvents() + " events");
            } else {
                out.printf("self-check: MISMATCH, the run as configured differs from the aggregator's events for %d "
                        + "target(s) or group(s):%n", result.check().mismatches().size());
                result.check().mismatches().forEach(m -> out.println("  " + m));
            }
        }
    }

    private static String delays(List<ReplayReport.OutageRow> outages) {
        List<String> parts = new ArrayList<>();
        for (ReplayReport.OutageRow o : outages) {
            parts.add(delay(o.delayConfiguredMs()) + " -> " + delay(o.delayAlternativeMs()));
        }
        return String.join(", ", parts);
    }

    private static String delay(Long ms) {
        return ms == null ? "missed" : human(ms);
    }

    static String human(long ms) {
        if (ms < 1_000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        if (ms < 3_600_000) {
            return String.format(Locale.ROOT, "%dm%02ds", ms / 60_000, (ms % 60_000) / 1000);
        }
        return String.format(Locale.ROOT, "%dh%02dm", ms / 3_600_000, (ms % 3_600_000) / 60_000);
    }
}
