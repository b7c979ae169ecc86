package io.healthmesh.e2e;

import io.healthmesh.schema.TargetHealth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@code read_committed} consumer of {@code health-state} must see whatever failed in between: per target,
 * consecutive state events chain up (each change's previous status is the status before it: no change lost) and none
 * repeats the one before it (an event is only emitted when something of its {@link #signature} changed: no change
 * duplicated).
 */
final class StateEventChain {

    private StateEventChain() {
    }

    /** One line per lost or repeated change, in the order seen; empty when the feed is exact. */
    static List<String> problems(List<TopicFeed.Event<TargetHealth>> events) {
        Map<String, TargetHealth> last = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (TopicFeed.Event<TargetHealth> e : events) {
            TargetHealth now = e.value();
            TargetHealth before = now == null ? last.remove(e.key()) : last.put(e.key(), now);
            if (now == null || before == null) {
                continue;
            }
            if (now.getStatus() != before.getStatus() && now.getPreviousStatus() != before.getStatus()) {
                problems.add(e.key() + " lost a transition: " + before.getStatus() + " then " + now.getPreviousStatus()
                        + " -> " + now.getStatus() + " (offset " + e.offset() + ")");
            }
            if (signature(now).equals(signature(before))) {
                problems.add(e.key() + " repeated " + now.getStatus() + " since " + now.getSinceMs()
                        + " (offset " + e.offset() + ")");
            }
        }
        return problems;
    }

    /** What an event is emitted for: status, stale flag, group, generation and the per-region status and staleness. */
    static String signature(TargetHealth h) {
        StringBuilder sb = new StringBuilder()
                .append(h.getStatus()).append('/').append(h.getPreviousStatus()).append('/').append(h.getSinceMs())
                .append('/').append(h.getStale()).append('/').append(h.getGroup()).append('/').append(h.getGeneration());
        h.getRegions().stream().sorted(Comparator.comparing(r -> r.getRegion()))
                .forEach(r -> sb.append('/').append(r.getRegion()).append('=').append(r.getStatus())
                        .append(r.getStale() ? "(stale)" : ""));
        return sb.toString();
    }
}
