package io.healthmesh.replay;

import io.healthmesh.core.maintenance.MaintenanceBook;
import io.healthmesh.core.maintenance.MaintenanceWindow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The self-check's comparison of the maintenance window each state event (and each group event) carries with the
 * window replay finds in force: the maintenance records (by record timestamp, a tombstone ending a window) make a
 * {@link MaintenanceBook}, the targets topic gives the target's group and labels at the event, and
 * {@link MaintenanceBook#inForce} (the one rule of precedence, the aggregator's; {@link MaintenanceBook#inForceForGroup}
 * for a group event) names the window at the event's {@code updatedAtMs}.
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

    /** The window one group event carried ({@code maintenanceId == null}: none). */
    public record GroupMark(String groupId, long offset, long updatedAtMs, String maintenanceId) {
        public GroupMark {
            requireNonNull(groupId, "groupId");
        }
    }

    /** One event to compare: who it names in messages, what it carried, and the window a book puts in force for it. */
    private record Item(String name, long offset, long updatedAtMs, String carried,
                        Function<MaintenanceBook, MaintenanceWindow> inForce) {
    }

    /**
     * @param records the maintenance records, in any order (sorted here by timestamp, offset order on a tie)
     * @param members each target's definitions, in offset order
     * @param marks the state events of the range
     */
    public static Result compare(List<WindowRecord> records, Map<String, List<Membership>> members, List<Mark> marks,
                                 long toleranceMs) {
        List<Item> items = new ArrayList<>();
        for (Mark m : marks) {
            Membership member = memberAt(members.get(m.targetId()), m.updatedAtMs());
            if (member == null) {
                continue; // no definition at the event: nothing to match the selectors with
            }
            items.add(new Item(m.targetId(), m.offset(), m.updatedAtMs(), m.maintenanceId(),
                    book -> book.inForce(m.targetId(), member.group(), member.labels(), m.updatedAtMs())));
        }
        return compare(records, items, toleranceMs);
    }

    /**
     * The group events' windows: only a window whose selector is the group covers it
     * ({@link MaintenanceBook#inForceForGroup}), with the same tolerance as state events.
     *
     * @param marks the group events of the range
     */
    public static Result compareGroups(List<WindowRecord> records, List<GroupMark> marks, long toleranceMs) {
        List<Item> items = new ArrayList<>();
        for (GroupMark m : marks) {
            items.add(new Item("group " + m.groupId(), m.offset(), m.updatedAtMs(), m.maintenanceId(),
                    book -> book.inForceForGroup(m.groupId(), m.updatedAtMs())));
        }
        return compare(records, items, toleranceMs);
    }

    /** Both comparisons in one: their events and mismatches added. */
    public static Result both(Result targets, Result groups) {
        List<String> all = new ArrayList<>(targets.mismatches());
        all.addAll(groups.mismatches());
        return new Result(targets.events() + groups.events(), all);
    }

    private static Result compare(List<WindowRecord> records, List<Item> items, long toleranceMs) {
        if (toleranceMs < 0) {
            throw new IllegalArgumentException("toleranceMs: " + toleranceMs + " (expected: 0 or more)");
        }
        List<WindowRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(WindowRecord::timestampMs)); // stable: offset order on a tie
        List<Item> byTime = new ArrayList<>(items);
        byTime.sort(Comparator.comparingLong(Item::updatedAtMs));
        MaintenanceBook settled = MaintenanceBook.EMPTY; // every record up to updatedAtMs - toleranceMs
        int applied = 0;
        Map<String, String> firstMismatch = new java.util.TreeMap<>();
        for (Item m : byTime) {
            long settledUpTo = m.updatedAtMs() - toleranceMs;
            while (applied < sorted.size() && sorted.get(applied).timestampMs() <= settledUpTo) {
                settled = apply(settled, sorted.get(applied++));
            }
            MaintenanceBook book = settled;
            String expected = id(m.inForce().apply(book));
            boolean matches = Objects.equals(expected, m.carried());
            for (int i = applied; !matches && i < sorted.size() && sorted.get(i).timestampMs() <= m.updatedAtMs();
                 i++) {
                book = apply(book, sorted.get(i));
                String later = id(m.inForce().apply(book));
                matches = Objects.equals(later, m.carried());
                expected = later;
            }
            if (!matches && !firstMismatch.containsKey(m.name())) {
                firstMismatch.put(m.name(), m.name() + ": maintenance: event at "
                        + Instant.ofEpochMilli(m.updatedAtMs()) + " (offset " + m.offset() + ") carries "
                        + name(m.carried()) + ", the windows recorded then put " + name(expected)
                        + " in force (within " + toleranceMs + " ms)");
            }
        }
        return new Result(byTime.size(), new ArrayList<>(firstMismatch.values()));
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
