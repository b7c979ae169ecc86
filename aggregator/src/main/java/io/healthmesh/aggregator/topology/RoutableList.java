package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.GroupState;
import io.healthmesh.core.health.HealthStatus;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Reads a group's routable ids, or its members, from the {@code group-members} rows ({@link GroupRows}) a page at a
 * time, in key order: the routable index when the group does not fail open, every member row when it does. A page
 * holds at most {@code maxIds} ids and at most {@link #MAX_ID_BYTES} bytes of ids, so a {@code GroupHealth} event
 * built from the first page stays far below 256 KiB whatever the group's size (ids are up to 255 characters).
 */
public final class RoutableList {

    /** Default of {@code group.routable.max}: ids in a {@code GroupHealth} event's routable list. */
    public static final int DEFAULT_MAX_IDS = 1_000;
    /** Bytes of ids (UTF-8) a page holds at most, whatever {@code maxIds} allows. */
    public static final int MAX_ID_BYTES = 192 * 1024;

    private final int maxIds;

    /** @param maxIds ids in a page at most (at least 1) */
    public RoutableList(int maxIds) {
        if (maxIds < 1) {
            throw new IllegalArgumentException("maxIds: " + maxIds + " (expected: at least 1)");
        }
        this.maxIds = maxIds;
    }

    public int maxIds() {
        return maxIds;
    }

    /**
     * One page: the ids, with their statuses (read from member rows; null when read from the routable index),
     * and the last id when more follow (the cursor of the next page), else null.
     */
    public record Page(List<String> ids, List<HealthStatus> statuses, String next) {
        public Page {
            ids = List.copyOf(ids);
        }

        public boolean truncated() {
            return next != null;
        }
    }

    /** The first page of a group's routable ids, for its event. */
    Page first(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, GroupState state) {
        return routable(rows, groupId, state.failOpen(), null, maxIds);
    }

    /**
     * A page of routable ids (every member when {@code failOpen}) after {@code after} (exclusive; null: from the
     * first), at most {@code limit} ids.
     */
    public static Page routable(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, boolean failOpen,
                                String after, int limit) {
        return read(rows, groupId, failOpen ? GroupRows.MEMBER : GroupRows.ROUTABLE, after, limit, false);
    }

    /** A page of members with their statuses after {@code after} (exclusive; null: from the first). */
    public static Page members(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, String after, int limit) {
        return read(rows, groupId, GroupRows.MEMBER, after, limit, true);
    }

    private static Page read(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String groupId, byte kind, String after,
                             int limit, boolean withStatus) {
        requireNonNull(groupId, "groupId");
        Bytes prefix = GroupRows.prefix(groupId, kind);
        int prefixLength = prefix.get().length;
        Bytes from = after == null ? prefix : GroupRows.key(groupId, kind, after);
        Bytes to = GroupRows.prefix(groupId, (byte) (kind + 1)); // no row has this key: member ids are not empty
        List<String> ids = new ArrayList<>(Math.min(limit, 1_024));
        List<HealthStatus> statuses = withStatus ? new ArrayList<>(Math.min(limit, 1_024)) : null;
        int bytes = 0;
        String next = null;
        try (KeyValueIterator<Bytes, byte[]> it = rows.range(from, to)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> row = it.next();
                String id = GroupRows.memberId(row.key, prefixLength);
                if (after != null && id.equals(after)) {
                    continue;
                }
                int size = row.key.get().length - prefixLength; // the id's UTF-8 bytes end the key
                if (ids.size() >= limit || bytes + size > MAX_ID_BYTES) {
                    next = ids.isEmpty() ? null : ids.get(ids.size() - 1);
                    break;
                }
                ids.add(id);
                bytes += size;
                if (withStatus) {
                    statuses.add(GroupRows.decodeStatus(row.value));
                }
            }
        }
        return new Page(ids, statuses, next);
    }
}
