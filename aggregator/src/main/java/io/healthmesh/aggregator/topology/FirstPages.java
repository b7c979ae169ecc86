package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.GroupState;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first page of each group's routable ids ({@link RoutableList#first}) as the last group event carried it, kept
 * per task and patched when one member enters or leaves the list, so that a routing change does not read the group's
 * rows again. Reading them was a RocksDB range scan per group event, with Kafka Streams registering and removing an
 * iterator metric each time: about a fifth of the stream thread in a profile of 1M results for 100,000 targets in
 * groups of 100.
 *
 * <p>A member entering a page takes its place in it; when the page is then over {@link RoutableList}'s limits its last
 * ids are cut (the page is then cut, its last id the cursor). A member leaving a cut page makes room: the page is
 * topped up with the ids after its cursor, read from there (not from the group's first row, so the rows and
 * tombstones before the cursor are not walked again). A change beyond a cut page's cursor leaves the page as it is.
 * The page is read again from the first row when the fail-open flag flips (the list switches between the routable
 * index and every member), or when the page's size disagrees with the counters. Pages are evicted least recently
 * used first once they hold more than {@code keptIds} ids in all; a task that is revived starts empty
 * ({@link #clear}), since its rows are restored to the last commit.
 *
 * <p>Ids are kept in the rows' key order, the unsigned order of their UTF-8 bytes, which for the well-formed strings
 * Avro decodes is the order of their code points ({@link #UTF8_ORDER}).
 */
final class FirstPages {

    /** Ids kept in all per task by default: an estimated 5.5 MB of heap at 60-character ASCII ids. */
    static final int DEFAULT_KEPT_IDS = 50_000;

    /** The order of the rows' keys: UTF-8 bytes compared unsigned, that is code points compared. */
    static final Comparator<String> UTF8_ORDER = FirstPages::compareCodePoints;

    private final RoutableList list;
    private final int keptIds;
    private final Map<String, Kept> groups = new LinkedHashMap<>(64, 0.75f, true);
    private int held;
    private long reads;
    private long refills;

    /** One group's page: its ids in key order, their UTF-8 size, and the cursor when more follow. */
    private static final class Kept {
        final ArrayList<String> ids;
        int bytes;
        String next;

        Kept(RoutableList.Page page) {
            this.ids = new ArrayList<>(page.ids());
            for (String id : ids) {
                bytes += Utils.utf8Length(id);
            }
            this.next = page.next();
        }
    }

    FirstPages(RoutableList list, int keptIds) {
        if (keptIds < 0) {
            throw new IllegalArgumentException("keptIds: " + keptIds + " (expected: at least 0)");
        }
        this.list = list;
        this.keptIds = keptIds;
    }

    /**
     * The first page of {@code groupId}'s routable list once {@code memberId} has entered it ({@code entering}) or left
     * it, the counters having moved from {@code before} to {@code after}; {@code rows} already hold the change.
     */
    RoutableList.Page afterChange(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, String memberId,
                                  boolean entering, GroupState before, GroupState after) {
        Kept kept = groups.get(groupId);
        if (kept != null && before.failOpen() == after.failOpen()
                && patch(rows, groupId, kept, memberId, entering, after)) {
            return new RoutableList.Page(kept.ids, null, kept.next);
        }
        forget(groupId);
        reads++;
        RoutableList.Page page = list.first(rows, groupId, after);
        keep(groupId, page);
        return page;
    }

    /** The first page read afresh: the whole routable set changed at once (the group's threshold changed). */
    RoutableList.Page reread(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, GroupState state) {
        forget(groupId);
        reads++;
        RoutableList.Page page = list.first(rows, groupId, state);
        keep(groupId, page);
        return page;
    }

    /** Drops {@code groupId}'s page (the group is gone). */
    void forget(String groupId) {
        Kept gone = groups.remove(groupId);
        if (gone != null) {
            held -= gone.ids.size();
        }
    }

    /** Drops every page (a task starting again from its restored rows). */
    void clear() {
        groups.clear();
        held = 0;
    }

    /** Pages read from the rows so far (the ones not patched), for tests. */
    long reads() {
        return reads;
    }

    /** Cut pages topped up from their cursor so far, for tests. */
    long refills() {
        return refills;
    }

    /** Ids held in all, for tests. */
    int held() {
        return held;
    }

    private boolean patch(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, Kept kept, String memberId,
                          boolean entering, GroupState after) {
        if (kept.next != null && compareCodePoints(memberId, kept.next) > 0) {
            // beyond the page: its ids stay the first ones; more follow unless the page now holds them all
            if (after.routable() <= kept.ids.size()) {
                kept.next = null;
            }
            return after.routable() >= kept.ids.size();
        }
        int at = Collections.binarySearch(kept.ids, memberId, UTF8_ORDER);
        if (entering) {
            if (at >= 0) {
                return false; // already there: never expected, so read it
            }
            add(kept, -at - 1, memberId);
            cutToLimits(kept);
        } else {
            if (at < 0) {
                return false;
            }
            kept.bytes -= Utils.utf8Length(kept.ids.remove(at));
            held--;
            if (kept.next != null) {
                refill(rows, groupId, kept, after.failOpen());
            }
        }
        evict();
        // a cut page holds fewer ids than the routable count, a whole one exactly as many: else read it
        return kept.next != null ? after.routable() > kept.ids.size() : kept.ids.size() == after.routable();
    }

    private void add(Kept kept, int at, String id) {
        kept.ids.add(at, id);
        kept.bytes += Utils.utf8Length(id);
        held++;
    }

    /** Drops ids from the end of the page until it is within the limits; the last one left is then the cursor. */
    private void cutToLimits(Kept kept) {
        boolean cut = false;
        while (!kept.ids.isEmpty()
                && (kept.ids.size() > list.maxIds() || kept.bytes > RoutableList.MAX_ID_BYTES)) {
            kept.bytes -= Utils.utf8Length(kept.ids.remove(kept.ids.size() - 1));
            held--;
            cut = true;
        }
        if (cut) {
            kept.next = kept.ids.isEmpty() ? null : kept.ids.get(kept.ids.size() - 1);
        }
    }

    /**
     * A cut page lost an id: the ids after its cursor move up. Reads from the cursor on (not from the group's first
     * row), as many as the limits may take.
     */
    private void refill(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, Kept kept, boolean failOpen) {
        refills++;
        RoutableList.Page more = RoutableList.routable(rows, groupId, failOpen, kept.next,
                list.maxIds() - kept.ids.size());
        boolean full = more.truncated();
        for (String id : more.ids()) {
            if (kept.bytes + Utils.utf8Length(id) > RoutableList.MAX_ID_BYTES) {
                full = true;
                break;
            }
            add(kept, kept.ids.size(), id);
        }
        kept.next = full && !kept.ids.isEmpty() ? kept.ids.get(kept.ids.size() - 1) : null;
    }

    private void keep(String groupId, RoutableList.Page page) {
        if (page.ids().size() > keptIds) {
            return;
        }
        groups.put(groupId, new Kept(page));
        held += page.ids().size();
        evict();
    }

    private void evict() {
        Iterator<Kept> eldest = groups.values().iterator();
        while (held > keptIds && eldest.hasNext()) {
            held -= eldest.next().ids.size();
            eldest.remove();
        }
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** For tests: the ids of the page kept for {@code groupId}, or null. */
    List<String> keptIds(String groupId) {
        Kept kept = groups.get(groupId);
        return kept == null ? null : List.copyOf(kept.ids);
    }
}
