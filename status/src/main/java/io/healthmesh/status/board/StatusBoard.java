package io.healthmesh.status.board;

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
 *
 * <p>Everything the board knows of one target lives in one {@link Target} under one key, so that a probe result,
 * the feed's most frequent input, costs one lookup in the fleet-sized map (it cost five or six in separate maps of
 * rows, labels, histories and pending points: {@code StatusBoardBenchmark}).
 */
public final class StatusBoard {

    /**
     * A target with everything the page shows about it.
     *
     * @param tls what the page says about the target's TLS verification: {@link #INSECURE_SKIP_VERIFY} when its
     *            definition turns verification off, {@link #NOT_VERIFIED_OLD_DEFAULT} when it was stored before
     *            HTTPS verified by default, else {@code null}
     */
    public record TargetEntry(TargetRow row, Map<String, String> labels, List<LatencyPoint> history, String tls) {

        /** The definition says {@code tls.insecureSkipVerify: true}. */
        public static final String INSECURE_SKIP_VERIFY = "insecure-skip-verify";
        /** A GENERIC HTTPS definition stored under the old default: probed without verification until applied again. */
        public static final String NOT_VERIFIED_OLD_DEFAULT = "not-verified-old-default";

        /** An entry without a TLS note. */
        public TargetEntry(TargetRow row, Map<String, String> labels, List<LatencyPoint> history) {
            this(row, labels, history, null);
        }
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
    private record GroupEvent(boolean failOpen, int routable, String failOpenReason) {
    }

    /**
     * One target: present while the board has its state event or its labels (or both). {@code pending} is its
     * list in {@link #newPoints}, {@code changed} whether it is in {@link #changed}.
     */
    private static final class Target {
        private TargetRow row;
        private Map<String, String> labels;
        private String tls;
        private LatencyRing history;
        private List<LatencyPoint> pending;
        private boolean changed;
    }

    private final int historySize;
    private final Map<String, Target> targets = new HashMap<>();
    private final Map<String, GroupEvent> groupEvents = new HashMap<>();
    private final Set<String> changed = new HashSet<>();
    private final Set<String> removed = new HashSet<>();
    private final Map<String, List<LatencyPoint>> newPoints = new LinkedHashMap<>();
    private Map<String, GroupRow> sentGroups = Map.of();
    private long seq;
    /**
     * Whether changes are collected for the next {@link #drain()}: not between a {@link #discardChanges()} (nobody
     * watches) and the next drain or snapshot, so that an unwatched board spends nothing per result on deltas.
     */
    private boolean collecting = true;

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
        Target target = targets.computeIfAbsent(row.id(), id -> new Target());
        target.row = row;
        markChanged(row.id(), target);
    }

    /** A target's tombstone: it was deleted. */
    public synchronized void removeTarget(String id) {
        Target target = targets.get(id);
        if (target != null && target.row != null) {
            targets.remove(id);
            changed.remove(id);
            newPoints.remove(id);
            if (collecting) {
                removed.add(id);
            }
        }
    }

    /** A target's labels, from its definition; {@code null} when the definition was deleted. */
    public synchronized void putLabels(String id, Map<String, String> newLabels) {
        putDefinition(id, newLabels, null);
    }

    /**
     * What the page shows of a target's definition: its labels and its TLS note ({@link TargetEntry#tls()});
     * {@code null} labels when the definition was deleted.
     */
    public synchronized void putDefinition(String id, Map<String, String> newLabels, String tlsNote) {
        requireNonNull(id, "id");
        Map<String, String> value = newLabels == null ? null : Map.copyOf(new TreeMap<>(newLabels));
        Target target = value == null ? targets.get(id) : targets.computeIfAbsent(id, k -> new Target());
        if (target == null) {
            return;
        }
        Map<String, String> before = target.labels;
        String tlsBefore = target.tls;
        target.labels = value;
        target.tls = value == null ? null : tlsNote;
        if (target.row == null) {
            if (value == null) {
                targets.remove(id);   // neither a state event nor a definition: forgotten, history included
            }
        } else if (!Objects.equals(before, value) || !Objects.equals(tlsBefore, target.tls)) {
            markChanged(id, target);
        }
    }

    /** One probe result; kept only for targets the board knows (a state event or a definition). */
    public synchronized void addResult(String id, LatencyPoint point) {
        Target target = keepsHistory() ? targets.get(id) : null;
        if (target == null) {
            return;
        }
        LatencyRing points = target.history;
        if (points == null) {
            points = new LatencyRing(historySize);
            target.history = points;
        } else if (!points.isEmpty() && points.lastAtMs() > point.atMs()) {
            return; // an older result (another region's, late): the history is in time order
        }
        points.add(point);
        if (collecting && target.row != null && !target.changed) {
            List<LatencyPoint> pending = target.pending;
            if (pending == null) {
                pending = new ArrayList<>(2);
                target.pending = pending;
                newPoints.put(id, pending);
            }
            if (pending.size() == historySize) {
                pending.remove(0);
            }
            pending.add(point);
        }
    }

    /** A group's new state event. */
    public synchronized void putGroup(String id, boolean failOpen, int routable) {
        putGroup(id, failOpen, routable, null);
    }

    /** A group's new state event, with why it fails open ({@code null}: it does not, or the event does not say). */
    public synchronized void putGroup(String id, boolean failOpen, int routable, String failOpenReason) {
        groupEvents.put(requireNonNull(id, "id"), new GroupEvent(failOpen, routable,
                failOpen && failOpenReason == null ? "NO_HEALTHY_MEMBER" : failOpen ? failOpenReason : null));
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
        List<TargetRow> rows = new ArrayList<>(targets.size());
        for (Target target : targets.values()) {
            if (target.row != null) {
                rows.add(target.row);
            }
        }
        return rows;
    }

    /** How many targets each region is stale for (only regions with at least one stale target). */
    public synchronized Map<String, Integer> staleRegions() {
        Map<String, Integer> stale = new TreeMap<>();
        for (Target target : targets.values()) {
            if (target.row == null) {
                continue;
            }
            for (RegionRow region : target.row.regions()) {
                if (region.stale()) {
                    stale.merge(region.region(), 1, Integer::sum);
                }
            }
        }
        return stale;
    }

    /** The whole board; also the starting point of the next deltas a new browser receives. */
    public synchronized Snapshot snapshot() {
        collecting = true;   // a browser starts from this: what changes after it goes into the next delta
        List<TargetEntry> entries = new ArrayList<>(targets.size());
        for (Target target : targets.values()) {
            if (target.row != null) {
                entries.add(entry(target));
            }
        }
        entries.sort(Comparator.comparing(e -> e.row().id()));
        return new Snapshot(seq, new ArrayList<>(groupRows().values()), entries);
    }

    /**
     * Forgets the changes collected so far without building a delta: what the push does while no browser is
     * connected, so that an unwatched board costs no per-push work over all its targets and groups, and stops
     * collecting changes until the next {@link #drain()} or {@link #snapshot()}, so that it costs no per-result
     * work for them either. The next drain then sends every group again (a browser that connects gets a snapshot
     * first).
     */
    public synchronized void discardChanges() {
        clearChanges();
        sentGroups = Map.of();
        collecting = false;
    }

    /** The changes since the previous drain (empty when nothing changed), and starts collecting anew. */
    public synchronized Delta drain() {
        collecting = true;
        List<TargetEntry> entries = new ArrayList<>(changed.size());
        for (String id : changed) {
            Target target = targets.get(id);
            if (target != null && target.row != null) {
                entries.add(entry(target));
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
        Delta delta = new Delta(seq + 1, entries, new ArrayList<>(removed), new LinkedHashMap<>(newPoints), groups,
                removedGroups);
        sentGroups = now;
        clearChanges();
        if (!delta.isEmpty()) {
            seq++;
        }
        return delta;
    }

    private void markChanged(String id, Target target) {
        if (!collecting) {
            return;
        }
        if (!target.changed) {
            target.changed = true;
            changed.add(id);
        }
        removed.remove(id);
        if (target.pending != null) {
            newPoints.remove(id); // the whole entry, history included, goes out
            target.pending = null;
        }
    }

    /** Starts collecting changes anew: the targets' flags and pending lists too (each of them is in a set here). */
    private void clearChanges() {
        for (String id : changed) {
            Target target = targets.get(id);
            if (target != null) {
                target.changed = false;
            }
        }
        for (String id : newPoints.keySet()) {
            Target target = targets.get(id);
            if (target != null) {
                target.pending = null;
            }
        }
        changed.clear();
        removed.clear();
        newPoints.clear();
    }

    private static TargetEntry entry(Target target) {
        return new TargetEntry(target.row, target.labels == null ? Map.of() : target.labels,
                target.history == null ? List.of() : target.history.toList(), target.tls);
    }

    private Map<String, GroupRow> groupRows() {
        Map<String, int[]> counts = new TreeMap<>();
        for (String id : groupEvents.keySet()) {
            counts.put(id, new int[6]);
        }
        for (Target target : targets.values()) {
            TargetRow row = target.row;
            if (row == null) {
                continue;
            }
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
                    : event.routable(), c[0], c[1], c[2], c[3], c[4], c[5], event == null ? null
                    : event.failOpenReason()));
        });
        return result;
    }
}
