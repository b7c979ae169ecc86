package io.healthmesh.replay;

import io.healthmesh.core.maintenance.MaintenanceBook;
import io.healthmesh.core.maintenance.MaintenanceWindow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * The self-check's comparison of the maintenance window each state event carries with the window replay finds in
 * force: the maintenance records (by record timestamp, a tombstone ending a window) make a {@link MaintenanceBook},
 * the targets topic gives the target's group and labels at the event, and {@link MaintenanceBook#inForce} (the one
 * rule of precedence, the aggregator's) names the window at the event's {@code updatedAtMs}.
 *
 * <p>The aggregator applies a maintenance record when its global store reads it, a little after the record's
 * timestamp, and a window's start or end produces its event at the next punctuation. So an event whose window differs
 * from the one of the book at {@code updatedAtMs} still matches when a book of a moment at most {@code toleranceMs}
 * earlier (the records then read, any of the records in between) gives the event's window; the report names the
 * tolerance.
 */
public final class MaintenanceCheck {

    /** One record of the maintenance topic: a window, or ({@code window == null}) the tombstone of {@code id}. */
    public record WindowRecord(long timestampMs, String id, MaintenanceWindow window) {
        public WindowRecord {
            requireNonNull(id, "id");
        }
    }

    /** A target's group and labels from {@code timestampMs} on (one definition of the targets topic). */
    public record Membership(long timestampMs, String group, Map<String, String> labels) {
        public Membership {
            requireNonNull(group, "group");
            labels = Map.copyOf(labels);
        }
    }

    /** The window one state event carried ({@code maintenanceId == null}: none). */
    public record Mark(String targetId, long offset, long updatedAtMs, String maintenanceId) {
        public Mark {
            requireNonNull(targetId, "targetId");
        }
    }

    /**
     * @param events state events compared
     * @param mismatches one line per target whose events differ (its first difference)
     */
    public record Result(int events, List<String> mismatches) {
        public Result {
            mismatches = List.copyOf(mismatches);
        }
    }

    private MaintenanceCheck() {
    }

    /**
     * @param records the maintenance records, in any order (sorted here by timestamp, offset order on a tie)
     * @param members each target's definitions, in offset order
     * @param marks the state events of the range
     */
    public static Result compare(List<WindowRecord> records, Map<String, List<Membership>> members, List<Mark> marks,
                                 long toleranceMs) {
        if (toleranceMs < 0) {
            throw new IllegalArgumentException("toleranceMs: " + toleranceMs + " (expected: 0 or more)");
        }
        List<WindowRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(WindowRecord::timestampMs)); // stable: offset order on a tie
        List<Mark> byTime = new ArrayList<>(marks);
        byTime.sort(Comparator.comparingLong(Mark::updatedAtMs));
        MaintenanceBook settled = MaintenanceBook.EMPTY; // every record up to updatedAtMs - toleranceMs
        int applied = 0;
        int compared = 0;
        Map<String, String> firstMismatch = new java.util.TreeMap<>();
        for (Mark m : byTime) {
            Membership member = memberAt(members.get(m.targetId()), m.updatedAtMs());
            if (member == null) {
                continue; // no definition at the event: nothing to match the selectors with
            }
            long settledUpTo = m.updatedAtMs() - toleranceMs;
            while (applied < sorted.size() && sorted.get(applied).timestampMs() <= settledUpTo) {
                settled = apply(settled, sorted.get(applied++));
            }
            compared++;
            MaintenanceBook book = settled;
            String expected = id(book.inForce(m.targetId(), member.group(), member.labels(), m.updatedAtMs()));
            boolean matches = Objects.equals(expected, m.maintenanceId());
            for (int i = applied; !matches && i < sorted.size() && sorted.get(i).timestampMs() <= m.updatedAtMs();
                 i++) {
                book = apply(book, sorted.get(i));
                String later = id(book.inForce(m.targetId(), member.group(), member.labels(), m.updatedAtMs()));
                matches = Objects.equals(later, m.maintenanceId());
                expected = later;
            }
            if (!matches && !firstMismatch.containsKey(m.targetId())) {
                firstMismatch.put(m.targetId(), m.targetId() + ": maintenance: event at "
                        + Instant.ofEpochMilli(m.updatedAtMs()) + " (offset " + m.offset() + ") carries "
                        + name(m.maintenanceId()) + ", the windows recorded then put " + name(expected)
                        + " in force (within " + toleranceMs + " ms)");
            }
        }
        return new Result(compared, new ArrayList<>(firstMismatch.values()));
    }

    private static MaintenanceBook apply(MaintenanceBook book, WindowRecord r) {
        return r.window() == null ? book.without(r.id()) : book.with(r.window());
    }

    /** The definition in force at {@code atMs}: the last one recorded at or before it, or null. */
    private static Membership memberAt(List<Membership> versions, long atMs) {
        Membership found = null;
        for (Membership v : versions == null ? List.<Membership>of() : versions) {
            if (v.timestampMs() > atMs) {
                break;
            }
            found = v;
        }
        return found;
    }

    private static String id(MaintenanceWindow w) {
        return w == null ? null : w.id();
    }

    private static String name(String id) {
        return id == null ? "no window" : "window " + id;
    }
}
