package io.healthmesh.replay;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What both runs of a replay did within the range: each target's start, its status changes, the real outages in the
 * raw results, the self-check and notes (definitions changed inside the range, results of unknown targets).
 *
 * @param results probe results replayed (of selected, defined targets, up to the end of the range)
 */
public record ReplayResult(ReplayWindow window, Alternatives alternatives, long results,
                           Map<String, StartState> configuredStart, Map<String, List<StatusChange>> configuredChanges,
                           Map<String, StartState> alternativeStart, Map<String, List<StatusChange>> alternativeChanges,
                           Map<String, List<Outage>> outages, SelfCheck check, List<String> notes) {

    /** Every target that existed at some point of the range. */
    public TreeSet<String> targets() {
        TreeSet<String> ids = new TreeSet<>();
        configuredStart.forEach((id, start) -> {
            if (start.status() != null) {
                ids.add(id);
            }
        });
        ids.addAll(configuredChanges.keySet());
        ids.addAll(alternativeChanges.keySet());
        return ids;
    }

    /** The figures: flips, flaps (a flip reversed within {@code flapSpanMs}), detection delays, fail-open time. */
    public ReplayReport report(long flapSpanMs) {
        return ReplayReport.of(this, flapSpanMs, GroupThresholds.NONE);
    }

    /** As {@link #report(long)}, with the groups' panic thresholds of each run. */
    public ReplayReport report(long flapSpanMs, GroupThresholds thresholds) {
        return ReplayReport.of(this, flapSpanMs, thresholds);
    }
}
