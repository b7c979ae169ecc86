package io.healthmesh.core.maintenance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Every known maintenance window, immutable, indexed so that the window in force for one target costs a few map
 * look-ups and a scan of the label windows, whatever number of targets a selector covers: windows are matched when a
 * target's state is computed, never copied onto targets. The one rule of precedence lives in
 * {@link #inForce}: of the windows covering a target at an instant, a DRAIN before a SILENCE, then the one ending
 * last, then the smallest id; {@link #inForceForGroup} applies it to a group's own event. The aggregator and replay
 * call them with the same instants.
 */
public final class MaintenanceBook {

    /** The book without windows. */
    public static final MaintenanceBook EMPTY = new MaintenanceBook(Map.of());

    private static final Comparator<MaintenanceWindow> PRECEDENCE = Comparator
            .comparing(MaintenanceWindow::mode)
            .thenComparing(MaintenanceWindow::endMs, Comparator.reverseOrder())
            .thenComparing(MaintenanceWindow::id);

    private final Map<String, MaintenanceWindow> byId;
    private final Map<String, List<MaintenanceWindow>> byTarget = new HashMap<>();
    private final Map<String, List<MaintenanceWindow>> byGroup = new HashMap<>();
    private final List<MaintenanceWindow> byLabels = new ArrayList<>();
    /** Every start and end instant, sorted, distinct. */
    private final long[] boundaries;

    private MaintenanceBook(Map<String, MaintenanceWindow> windows) {
        this.byId = Map.copyOf(windows);
        long[] instants = new long[byId.size() * 2];
        int n = 0;
        for (MaintenanceWindow w : new TreeMap<>(byId).values()) {
            MaintenanceSelector s = w.selector();
            if (s.targetId() != null) {
                byTarget.computeIfAbsent(s.targetId(), k -> new ArrayList<>(1)).add(w);
            } else if (s.group() != null) {
                byGroup.computeIfAbsent(s.group(), k -> new ArrayList<>(1)).add(w);
            } else {
                byLabels.add(w);
            }
            instants[n++] = w.startMs();
            instants[n++] = w.endMs();
        }
        this.boundaries = Arrays.stream(instants).sorted().distinct().toArray();
    }

    /** A book of these windows (ids distinct; the last of equal ids wins). */
    public static MaintenanceBook of(Collection<MaintenanceWindow> windows) {
        Map<String, MaintenanceWindow> map = new HashMap<>();
        windows.forEach(w -> map.put(w.id(), w));
        return new MaintenanceBook(map);
    }

    /** This book with {@code w} added or replacing the window of its id. */
    public MaintenanceBook with(MaintenanceWindow w) {
        Map<String, MaintenanceWindow> map = new HashMap<>(byId);
        map.put(w.id(), w);
        return new MaintenanceBook(map);
    }

    /** This book without the window {@code id} (itself when there is none). */
    public MaintenanceBook without(String id) {
        if (!byId.containsKey(id)) {
            return this;
        }
        Map<String, MaintenanceWindow> map = new HashMap<>(byId);
        map.remove(id);
        return new MaintenanceBook(map);
    }

    /** The window {@code id}, if known. */
    public Optional<MaintenanceWindow> window(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** Every window, by id. */
    public Map<String, MaintenanceWindow> windows() {
        return byId;
    }

    public int size() {
        return byId.size();
    }

    /**
     * The window in force for a target at {@code atMs}, or null: of the windows whose selector covers the target's
     * id, group and labels and that are in force then, the first by precedence (DRAIN, then the latest end, then
     * the smallest id).
     */
    public MaintenanceWindow inForce(String targetId, String group, Map<String, String> labels, long atMs) {
        requireNonNull(labels, "labels");
        MaintenanceWindow best = null;
        best = better(best, byTarget.get(targetId), targetId, group, labels, atMs);
        best = better(best, byGroup.get(group), targetId, group, labels, atMs);
        return better(best, byLabels, targetId, group, labels, atMs);
    }

    /**
     * The window in force for a group itself at {@code atMs}, or null: of the windows whose selector is this group
     * and that are in force then, the first by the same precedence. A target or label window covers members, never
     * the group: it does not hold the group's own (fail-open) alerts.
     */
    public MaintenanceWindow inForceForGroup(String group, long atMs) {
        requireNonNull(group, "group");
        return better(null, byGroup.get(group), null, group, Map.of(), atMs);
    }

    private static MaintenanceWindow better(MaintenanceWindow best, List<MaintenanceWindow> candidates, String id,
                                            String group, Map<String, String> labels, long atMs) {
        if (candidates == null) {
            return best;
        }
        for (MaintenanceWindow w : candidates) {
            if (w.inForceAt(atMs) && w.selector().matches(id, group, labels)
                    && (best == null || PRECEDENCE.compare(w, best) < 0)) {
                best = w;
            }
        }
        return best;
    }

    /** The first start or end of a window after {@code atMs}, or {@link Long#MAX_VALUE} when none is left. */
    public long nextBoundaryAfter(long atMs) {
        int i = Arrays.binarySearch(boundaries, atMs);
        int next = i >= 0 ? i + 1 : -i - 1;
        return next < boundaries.length ? boundaries[next] : Long.MAX_VALUE;
    }

    /** True when some window starts or ends in {@code (fromMs, toMs]}. */
    public boolean crossesBoundary(long fromMs, long toMs) {
        return nextBoundaryAfter(fromMs) <= toMs;
    }
}
