package io.healthmesh.replay;

import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.health.HealthStatus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The figures of a replay, per target and in total, "as configured" next to "with the alternatives".
 *
 * <ul>
 *   <li>A <em>flip</em> is a change between HEALTHY and UNHEALTHY (a target's first decision is not one).</li>
 *   <li>A <em>flap</em> is a flip that the target's next flip reverses within the flap span. Flaps avoided (added)
 *       are, per target, how many fewer (more) flaps the alternatives give.</li>
 *   <li>An outage's <em>detection delay</em> runs from its first failed probe to the change to UNHEALTHY (0 when the
 *       target was UNHEALTHY already; {@code null} when it never turned UNHEALTHY before the outage ended).</li>
 *   <li><em>Fail-open time</em> per group is how long the group (its replayed members) had no routable member, computed
 *       with the aggregator's group rule ({@link GroupState}: the group's panic threshold, recorded or given with
 *       {@code --panic}, included).</li>
 * </ul>
 */
public record ReplayReport(List<TargetRow> targets, List<GroupRow> groups, Totals totals, long flapSpanMs) {

    /** One target's figures. */
    public record TargetRow(String targetId, String group, int flipsConfigured, int flipsAlternative,
                            int flapsConfigured, int flapsAlternative, int flapsAvoided, int flapsAdded,
                            List<OutageRow> outages) {
    }

    /** One real outage, with its detection delay under each run ({@code null}: not detected). */
    public record OutageRow(long startMs, Long endMs, Long delayConfiguredMs, Long delayAlternativeMs) {
    }

    /** One group's time spent fail-open under each run. */
    public record GroupRow(String group, long failOpenConfiguredMs, long failOpenAlternativeMs) {
    }

    /** Sums over every target (delays: how many outages each run detected and the mean delay of those). */
    public record Totals(int targets, int flipsConfigured, int flipsAlternative, int flapsConfigured,
                         int flapsAlternative, int flapsAvoided, int flapsAdded, int outages,
                         int detectedConfigured, int detectedAlternative, Long meanDelayConfiguredMs,
                         Long meanDelayAlternativeMs) {
    }

    static ReplayReport of(ReplayResult r, long flapSpanMs, GroupThresholds thresholds) {
        if (flapSpanMs < 0) {
            throw new IllegalArgumentException("--flap-span: " + flapSpanMs + " ms (expected: 0 or more)");
        }
        List<TargetRow> rows = new ArrayList<>();
        int flipsC = 0, flipsA = 0, flapsC = 0, flapsA = 0, avoided = 0, added = 0, outages = 0;
        int detectedC = 0, detectedA = 0;
        long sumC = 0, sumA = 0;
        for (String id : r.targets()) {
            List<StatusChange> c = r.configuredChanges().getOrDefault(id, List.of());
            List<StatusChange> a = r.alternativeChanges().getOrDefault(id, List.of());
            int fc = flips(c);
            int fa = flips(a);
            int pc = flaps(c, flapSpanMs);
            int pa = flaps(a, flapSpanMs);
            List<OutageRow> outageRows = new ArrayList<>();
            for (Outage o : r.outages().getOrDefault(id, List.of())) {
                long end = o.endMs() == null ? r.window().toMs() : o.endMs();
                Long dc = delay(r.configuredStart().get(id), c, o.startMs(), end);
                Long da = delay(r.alternativeStart().get(id), a, o.startMs(), end);
                outageRows.add(new OutageRow(o.startMs(), o.endMs(), dc, da));
                outages++;
                if (dc != null) {
                    detectedC++;
                    sumC += dc;
                }
                if (da != null) {
                    detectedA++;
                    sumA += da;
                }
            }
            rows.add(new TargetRow(id, group(r, id), fc, fa, pc, pa, Math.max(0, pc - pa), Math.max(0, pa - pc),
                    outageRows));
            flipsC += fc;
            flipsA += fa;
            flapsC += pc;
            flapsA += pa;
            avoided += Math.max(0, pc - pa);
            added += Math.max(0, pa - pc);
        }
        Map<String, Long> failOpenC = failOpen(r.configuredStart(), r.configuredChanges(), r.window(),
                thresholds::configured);
        Map<String, Long> failOpenA = failOpen(r.alternativeStart(), r.alternativeChanges(), r.window(),
                thresholds::alternative);
        TreeMap<String, GroupRow> groups = new TreeMap<>();
        for (String g : failOpenC.keySet()) {
            groups.put(g, new GroupRow(g, failOpenC.get(g), failOpenA.getOrDefault(g, 0L)));
        }
        for (String g : failOpenA.keySet()) {
            groups.putIfAbsent(g, new GroupRow(g, 0, failOpenA.get(g)));
        }
        return new ReplayReport(rows, List.copyOf(groups.values()), new Totals(rows.size(), flipsC, flipsA, flapsC,
                flapsA, avoided, added, outages, detectedC, detectedA, detectedC == 0 ? null : sumC / detectedC,
                detectedA == 0 ? null : sumA / detectedA), flapSpanMs);
    }

    static int flips(List<StatusChange> changes) {
        int n = 0;
        for (StatusChange c : changes) {
            if (c.isFlip()) {
                n++;
            }
        }
        return n;
    }

    static int flaps(List<StatusChange> changes, long spanMs) {
        List<StatusChange> flips = changes.stream().filter(StatusChange::isFlip).toList();
        int n = 0;
        for (int i = 0; i + 1 < flips.size(); i++) {
            StatusChange flip = flips.get(i);
            StatusChange next = flips.get(i + 1);
            if (next.to() == flip.from() && next.atMs() - flip.atMs() <= spanMs) {
                n++;
            }
        }
        return n;
    }

    private static Long delay(StartState start, List<StatusChange> changes, long outageStartMs, long outageEndMs) {
        HealthStatus status = start == null ? null : start.status();
        for (StatusChange c : changes) {
            if (c.atMs() > outageStartMs) {
                break;
            }
            status = c.to();
        }
        if (status == HealthStatus.UNHEALTHY) {
            return 0L;
        }
        for (StatusChange c : changes) {
            if (c.atMs() > outageStartMs && c.atMs() <= outageEndMs && c.to() == HealthStatus.UNHEALTHY) {
                return c.atMs() - outageStartMs;
            }
        }
        return null;
    }

    private static String group(ReplayResult r, String id) {
        List<StatusChange> c = r.configuredChanges().getOrDefault(id, List.of());
        if (!c.isEmpty() && c.get(c.size() - 1).group() != null) {
            return c.get(c.size() - 1).group();
        }
        StartState s = r.configuredStart().get(id);
        return s == null ? null : s.group();
    }

    /**
     * Time each group spent fail-open within the window, its members' statuses replayed in time order through the
     * group rule the aggregator keeps ({@link GroupState}, with each group's panic threshold from {@code thresholds}
     * and its hysteresis). A group's state at the start is decided by the rule alone (no history before it).
     */
    static Map<String, Long> failOpen(Map<String, StartState> starts, Map<String, List<StatusChange>> changes,
                                      ReplayWindow window, Function<String, PanicThreshold> thresholds) {
        List<StatusChange> all = new ArrayList<>();
        changes.values().forEach(all::addAll);
        all.sort(Comparator.comparingLong(StatusChange::atMs));
        long begin = window.fromBeginning()
                ? (all.isEmpty() ? window.toMs() : all.get(0).atMs()) : window.fromMs();
        Map<String, GroupCounts> startCounts = new HashMap<>();
        Map<String, String> groupOf = new HashMap<>();
        Map<String, HealthStatus> statusOf = new HashMap<>();
        starts.forEach((id, s) -> {
            if (s.status() != null) {
                startCounts.put(s.group(), startCounts.getOrDefault(s.group(), GroupCounts.EMPTY).move(null, s.status()));
                groupOf.put(id, s.group());
                statusOf.put(id, s.status());
            }
        });
        Map<String, GroupState> groups = new HashMap<>();
        startCounts.forEach((g, counts) -> groups.put(g, GroupState.of(counts, thresholds.apply(g))));
        Map<String, Long> total = new TreeMap<>();
        Map<String, Long> openSince = new HashMap<>();
        groups.forEach((g, state) -> {
            total.put(g, 0L);
            if (state.failOpen()) {
                openSince.put(g, begin);
            }
        });
        for (StatusChange c : all) {
            long at = Math.max(begin, Math.min(c.atMs(), window.toMs()));
            String old = groupOf.get(c.targetId());
            if (old != null && (c.to() == null || !old.equals(c.group()))) {
                groups.put(old, groups.get(old).move(statusOf.remove(c.targetId()), null));
                groupOf.remove(c.targetId());
                settle(old, groups.get(old), at, openSince, total);
            }
            if (c.to() != null) {
                GroupState state = groups.getOrDefault(c.group(),
                        GroupState.EMPTY.withThreshold(thresholds.apply(c.group())));
                groups.put(c.group(), state.move(statusOf.put(c.targetId(), c.to()), c.to()));
                groupOf.put(c.targetId(), c.group());
                total.putIfAbsent(c.group(), 0L);
                settle(c.group(), groups.get(c.group()), at, openSince, total);
            }
        }
        openSince.forEach((g, since) -> total.merge(g, Math.max(0, window.toMs() - since), Long::sum));
        return total;
    }

    private static void settle(String group, GroupState state, long at, Map<String, Long> openSince,
                               Map<String, Long> total) {
        boolean open = state.failOpen();
        Long since = openSince.get(group);
        if (open && since == null) {
            openSince.put(group, at);
        } else if (!open && since != null) {
            total.merge(group, Math.max(0, at - since), Long::sum);
            openSince.remove(group);
        }
    }
}
