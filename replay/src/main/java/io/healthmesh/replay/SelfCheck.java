package io.healthmesh.replay;

import io.healthmesh.core.health.HealthStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The replay's check of itself: within the range, the run "as configured" must go through exactly the statuses the
 * aggregator's state events went through, target by target and in the same order. Events that only change the
 * per-region breakdown or the stale flag are not compared one by one (their timing follows the aggregator's
 * punctuations and its staleness clock); every change of a target's status is, with the time it was entered
 * ({@code sinceMs}) when a result caused it (the completion of that result, the same on any clock). A change caused by
 * a definition or by staleness is compared by status only: the aggregator dates a definition's by the record and a
 * staleness one by its staleness clock ({@code ReadClock}, how far it had read its input), replay by the record
 * timestamps.
 *
 * <p>Group events are compared too ({@link GroupCheck}): the fail-open verdicts of each group whose members are all
 * replayed, from the membership changes of the run as configured.
 *
 * @param targets targets compared
 * @param changes status changes the aggregator emitted in the range (each one compared)
 * @param mismatches one line per target or group that differs (empty when replay reproduces the aggregator)
 * @param maintenanceEvents state and group events whose maintenance window was compared ({@link MaintenanceCheck};
 *                          0 when the windows were not read)
 * @param groups groups compared
 * @param groupChanges fail-open verdict changes the aggregator's group events went through in the range
 */
public record SelfCheck(int targets, int changes, List<String> mismatches, int maintenanceEvents, int groups,
                        int groupChanges) {

    public SelfCheck {
        mismatches = List.copyOf(mismatches);
    }

    public SelfCheck(int targets, int changes, List<String> mismatches, int maintenanceEvents) {
        this(targets, changes, mismatches, maintenanceEvents, 0, 0);
    }

    public SelfCheck(int targets, int changes, List<String> mismatches) {
        this(targets, changes, mismatches, 0);
    }

    /** This check with the maintenance comparison's events and mismatches added. */
    SelfCheck with(MaintenanceCheck.Result maintenance) {
        List<String> all = new ArrayList<>(mismatches);
        all.addAll(maintenance.mismatches());
        return new SelfCheck(targets, changes, all, maintenanceEvents + maintenance.events(), groups, groupChanges);
    }

    /** This check with the group comparison's groups, changes and mismatches added. */
    SelfCheck with(GroupCheck.Result group) {
        List<String> all = new ArrayList<>(mismatches);
        all.addAll(group.mismatches());
        return new SelfCheck(targets, changes, all, maintenanceEvents, groups + group.groups(),
                groupChanges + group.changes());
    }

    public boolean matches() {
        return mismatches.isEmpty();
    }

    static SelfCheck compare(ReplayWindow window, ReplayRun configured, Map<String, List<EmittedEvent>> aggregator,
                             Map<String, EmittedEvent> lastBeforeRange) {
        TreeSet<String> ids = new TreeSet<>(aggregator.keySet());
        ids.addAll(configured.emitted().keySet());
        int changes = 0;
        List<String> mismatches = new ArrayList<>();
        for (String id : ids) {
            EmittedEvent prior = lastBeforeRange.get(id);
            HealthStatus start = prior == null ? null : prior.status();
            List<EmittedEvent> theirs = collapseEvents(start, aggregator.getOrDefault(id, List.of()));
            List<ReplayRun.Emitted> ours = collapseReplayed(start, configured.emitted().getOrDefault(id, List.of()));
            changes += theirs.size();
            String mismatch = firstDifference(id, theirs, ours);
            if (mismatch != null) {
                mismatches.add(mismatch);
            }
        }
        return new SelfCheck(ids.size(), changes, mismatches);
    }

    private static String firstDifference(String id, List<EmittedEvent> theirs, List<ReplayRun.Emitted> ours) {
        int n = Math.min(theirs.size(), ours.size());
        for (int i = 0; i < n; i++) {
            EmittedEvent t = theirs.get(i);
            ReplayRun.Emitted o = ours.get(i);
            if (t.status() != o.status() || (causedByResult(t) && t.state().sinceMs() != o.sinceMs())) {
                return id + ": status change #" + (i + 1) + ": aggregator " + name(t.status()) + " since "
                        + since(t) + " (event offset " + t.offset() + "), replay " + name(o.status()) + " since "
                        + Instant.ofEpochMilli(o.sinceMs());
            }
        }
        if (theirs.size() > n) {
            EmittedEvent next = theirs.get(n);
            return id + ": the aggregator emitted " + theirs.size() + " status changes, replay " + ours.size()
                    + "; first missing in replay: " + name(next.status()) + " at "
                    + Instant.ofEpochMilli(next.timestampMs()) + " (offset " + next.offset() + ")";
        }
        if (ours.size() > n) {
            ReplayRun.Emitted next = ours.get(n);
            return id + ": replay produced " + ours.size() + " status changes, the aggregator " + theirs.size()
                    + "; first not emitted by the aggregator: " + name(next.status()) + " at "
                    + Instant.ofEpochMilli(next.timestampMs());
        }
        return null;
    }

    private static List<EmittedEvent> collapseEvents(HealthStatus start, List<EmittedEvent> events) {
        List<EmittedEvent> out = new ArrayList<>();
        HealthStatus last = start;
        for (EmittedEvent e : events) {
            if (!Objects.equals(e.status(), last)) {
                out.add(e);
                last = e.status();
            }
        }
        return out;
    }

    private static List<ReplayRun.Emitted> collapseReplayed(HealthStatus start, List<ReplayRun.Emitted> events) {
        List<ReplayRun.Emitted> out = new ArrayList<>();
        HealthStatus last = start;
        for (ReplayRun.Emitted e : events) {
            if (!Objects.equals(e.status(), last)) {
                out.add(e);
                last = e.status();
            }
        }
        return out;
    }

    /** True when the event's status was entered at the completion of its last result. */
    private static boolean causedByResult(EmittedEvent e) {
        EmittedEvent.State s = e.state();
        return s != null && s.lastResult() != null
                && s.sinceMs() == s.lastResult().startedAtMs() + s.lastResult().latencyMicros() / 1_000;
    }

    private static String since(EmittedEvent e) {
        return Instant.ofEpochMilli(e.state() == null ? e.timestampMs() : e.state().sinceMs()).toString();
    }

    private static String name(HealthStatus s) {
        return s == null ? "(deleted)" : s.name();
    }
}
