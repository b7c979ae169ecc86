package io.healthmesh.aggregator.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * What the status page shows, kept current by one writer (the feed) and read by the push thread and the metrics:
 * every target's last state event, its labels (from its definition) and its recent latencies (from probe results),
 * and every group's fail-open flag and routable count. Changes since the last {@link #drain()} are collected, so
 * that browsers receive one small {@link Delta} per push instead of the whole board. Thread-safe (one lock; every
 * method is short, a snapshot of 10,000 targets copies references only).
 */
public final class StatusBoard {

    /** A target with everything the page shows about it. */
    public record TargetEntry(TargetRow row, Map<String, String> labels, List<LatencyPoint> history) {
    }

    /** The whole board, sorted by id. */
    public record Snapshot(long seq, List<GroupRow> groups, List<TargetEntry> targets) {
    }

    /**
     * What changed since the previous drain: targets whose state or labels changed (whole entries), removed
     * targets, new latency points per target, and changed or removed groups.
     */
    public record Delta(long seq, List<TargetEntry> targets, List<String> removedTargets,
                        Map<String, List<LatencyPoint>> latency, List<GroupRow> groups, List<String> removedGroups) {
        public boolean isEmpty() {
            return targets.isEmpty() && removedTargets.isEmpty() && latency.isEmpty() && groups.isEmpty()
                    && removedGroups.isEmpty();
        }
    }

    /** A group's last state event. */
    private record GroupEvent(boolean failOpen, int routable) {
    }

    private final int historySize;
    private final Map<String, TargetRow> rows = new HashMap<>();
    private final Map<String, Map<String, String>> labels = new HashMap<>();
    private final Map<String, LatencyRing> history = new HashMap<>();
    private final Map<String, GroupEvent> groupEvents = new HashMap<>();
    private final Set<String> changed = new HashSet<>();
    private final Set<String> removed = new HashSet<>();
    private final Map<String, List<LatencyPoint>> newPoints = new LinkedHashMap<>();
    private Map<String, GroupRow> sentGroups = Map.of();
    private long seq;

    /**
     * @param historySize how many recent results each target keeps (0..1000); 0 keeps no latency history, and
     *     the feed then reads no probe results at all ({@link #keepsHistory()})
     */
    public StatusBoard(int historySize) {
        if (historySize < 0 || historySize > 1000) {
            throw new IllegalArgumentException("historySize: " + historySize + " (expected: 0..1000)");
        }
        this.historySize = historySize;
    }

    /** Whether the board keeps latency histories, so whether probe results are worth reading for it. */
    public boolean keepsHistory() {
        return historySize > 0;
    }

    /** A target's new state event. */
    public synchronized void putTarget(TargetRow row) {
        requireNonNull(row, "row");
        rows.put(row.id(), row);
        markChanged(row.id());
    }

    /** A target's tombstone: it was deleted. */
    public synchronized void removeTarget(String id) {
        if (rows.remove(id) != null) {
            labels.remove(id);
            history.remove(id);
            changed.remove(id);
            newPoints.remove(id);
            removed.add(id);
        }
    }

    /** A target's labels, from its definition; {@code null} when the definition was deleted. */
    public synchronized void putLabels(String id, Map<String, String> newLabels) {
        requireNonNull(id, "id");
        Map<String, String> value = newLabels == null ? null : Map.copyOf(new TreeMap<>(newLabels));
        Map<String, String> before = value == null ? labels.remove(id) : labels.put(id, value);
        if (!Objects.equals(before, value) && rows.containsKey(id)) {
            markChanged(id);
        }
        if (value == null && !rows.containsKey(id)) {
            history.remove(id);
        }
    }

    /** One probe result; kept only for targets the board knows (a state event or a definition). */
    public synchronized void addResult(String id, LatencyPoint point) {
        if (!keepsHistory() || !rows.containsKey(id) && !labels.containsKey(id)) {
            return;
        }
        LatencyRing points = history.computeIfAbsent(id, k -> new LatencyRing(historySize));
        if (!points.isEmpty() && points.lastAtMs() > point.atMs()) {
            return; // an older result (another region's, late): the history is in time order
        }
        points.add(point);
        if (rows.containsKey(id) && !changed.contains(id)) {
            List<LatencyPoint> pending = newPoints.computeIfAbsent(id, k -> new ArrayList<>(2));
            if (pending.size() == historySize) {
                pending.remove(0);
            }
            pending.add(point);
        }
    }

    /** A group's new state event. */
    public synchronized void putGroup(String id, boolean failOpen, int routable) {
        groupEvents.put(requireNonNull(id, "id"), new GroupEvent(failOpen, routable));
    }

    /** A group's tombstone: its last member left. */
    public synchronized void removeGroup(String id) {
        groupEvents.remove(id);
    }

    /** Every group, by id: the union of groups with an event and groups of known targets. */
    public synchronized List<GroupRow> groups() {
        return new ArrayList<>(groupRows().values());
    }

    /** Every target's last state event, unordered. */
    public synchronized List<TargetRow> targets() {
        return new ArrayList<>(rows.values());
    }

    /** How many targets each region is stale for (only regions with at least one stale target). */
    public synchronized Map<String, Integer> staleRegions() {
        Map<String, Integer> stale = new TreeMap<>();
        for (TargetRow row : rows.values()) {
            for (RegionRow region : row.regions()) {
                if (region.stale()) {
                    stale.merge(region.region(), 1, Integer::sum);
                }
            }
        }
        return stale;
    }

    /** The whole board; also the starting point of the next deltas a new browser receives. */
    public synchronized Snapshot snapshot() {
        List<TargetEntry> targets = new ArrayList<>(rows.size());
        for (TargetRow row : rows.values()) {
            targets.add(entry(row));
        }
        targets.sort(Comparator.comparing(e -> e.row().id()));
        return new Snapshot(seq, new ArrayList<>(groupRows().values()), targets);
    }

    /**
     * Forgets the changes collected so far without building a delta: what the push does while no browser is
     * connected, so that an unwatched board costs no per-push work over all its targets and groups. The next
     * {@link #drain()} then sends every group again (a browser that connects gets a snapshot first).
     */
    public synchronized void discardChanges() {
        changed.clear();
        removed.clear();
        newPoints.clear();
        sentGroups = Map.of();
    }

    /** The changes since the previous drain (empty when nothing changed), and starts collecting anew. */
    public synchronized Delta drain() {
        List<TargetEntry> targets = new ArrayList<>(changed.size());
        for (String id : changed) {
            TargetRow row = rows.get(id);
            if (row != null) {
                targets.add(entry(row));
            }
        }
        Map<String, GroupRow> now = groupRows();
        List<GroupRow> groups = new ArrayList<>();
        for (GroupRow g : now.values()) {
            if (!g.equals(sentGroups.get(g.id()))) {
                groups.add(g);
            }
        }
        List<String> removedGroups = new ArrayList<>();
        for (String id : sentGroups.keySet()) {
            if (!now.containsKey(id)) {
                removedGroups.add(id);
            }
        }
        Delta delta = new Delta(seq + 1, targets, new ArrayList<>(removed), new LinkedHashMap<>(newPoints), groups,
                removedGroups);
        sentGroups = now;
        changed.clear();
        removed.clear();
        newPoints.clear();
        if (!delta.isEmpty()) {
            seq++;
        }
        return delta;
    }

    private void markChanged(String id) {
        changed.add(id);
        removed.remove(id);
        newPoints.remove(id); // the whole entry, history included, goes out
    }

    private TargetEntry entry(TargetRow row) {
        LatencyRing points = history.get(row.id());
        return new TargetEntry(row, labels.getOrDefault(row.id(), Map.of()),
                points == null ? List.of() : points.toList());
    }

    private Map<String, GroupRow> groupRows() {
        Map<String, int[]> counts = new TreeMap<>();
        for (String id : groupEvents.keySet()) {
            counts.put(id, new int[6]);
        }
        for (TargetRow row : rows.values()) {
            int[] c = counts.computeIfAbsent(row.group(), k -> new int[6]);
            c[0]++;
            switch (row.status()) {
                case "HEALTHY" -> c[1]++;
                case "UNHEALTHY" -> c[2]++;
                case "DISABLED" -> c[4]++;
                default -> c[3]++;
            }
            if (row.stale()) {
                c[5]++;
            }
        }
        Map<String, GroupRow> result = new LinkedHashMap<>();
        counts.forEach((id, c) -> {
            GroupEvent event = groupEvents.get(id);
            result.put(id, new GroupRow(id, event == null ? null : event.failOpen(), event == null ? 0
                    : event.routable(), c[0], c[1], c[2], c[3], c[4], c[5]));
        });
        return result;
    }
}
