package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.TargetHistory;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.healthmesh.aggregator.topology.BinaryFormat.readEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.readNullableString;
import static io.healthmesh.aggregator.topology.BinaryFormat.readString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableEnum;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeNullableString;
import static io.healthmesh.aggregator.topology.BinaryFormat.writeString;

/**
 * The layout of the {@code target-history-rows} store: a target's history as a ring of rows, one per entry, so that
 * a result writes its own small row (and the ring's head) instead of the whole history. (The history used to be
 * one value per target, about 2 KB at 50 entries, read, decoded, re-encoded and sent to the changelog for every
 * result applied: at tens of thousands of results a second that was most of the aggregator's work and bytes.)
 *
 * <p>A key is the target id's UTF-8 byte count (4 bytes, big-endian), the id, and a 2-byte slot; the length prefix
 * keeps one target's rows together and apart from every other target's. Entry number {@code n} lives in slot
 * {@code n % length}; its value is a format version byte, {@code n}, and the entry. The number the next entry takes
 * is kept in the target's own row of the {@code target-health} store ({@link StoredTarget#historyNext()}), which
 * an applied result rewrites anyway, so a result writes one history row and nothing else here. (An earlier store
 * format gave the ring a head row, slot {@link #HEAD}, with that number and the ring's length, written with every
 * entry: about a quarter of the aggregator's changelog records. A target whose row predates the change has its
 * head read once, on its next entry, and deleted.) A reader takes every row of the target and keeps the newest
 * {@code length} (the instance's {@code history.length}) by sequence number, so a changed {@code history.length}
 * reads right at once (rows past a shortened ring stay until the target is deleted; a longer ring fills over the
 * next results).
 */
public final class HistoryRows {

    private static final Logger LOG = LoggerFactory.getLogger(HistoryRows.class);

    /** The slot of the legacy ring head (written by the earlier store format; read once, then deleted). */
    static final int HEAD = 0xFFFF;
    /** The largest ring (slots 0 to this minus one). */
    static final int MAX_LENGTH = HEAD;
    private static final int HEAD_BYTES = 12;
    /** Format version of an entry row: 2, the first with length-prefixed strings ({@link BinaryFormat}). */
    static final int VERSION = 2;
    private static final byte RESULT = 1;
    private static final byte STATUS_CHANGE = 2;

    private HistoryRows() {
    }

    /** The key of {@code slot} of {@code targetId}'s ring. */
    public static Bytes key(String targetId, int slot) {
        byte[] id = targetId.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(4 + id.length + 2).putInt(id.length).put(id).putShort((short) slot)
                .array());
    }

    /** The prefix every row of {@code targetId} starts with. */
    static Bytes prefix(String targetId) {
        byte[] id = targetId.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(4 + id.length).putInt(id.length).put(id).array());
    }

    /**
     * Adds {@code entries} (oldest first) to {@code targetId}'s ring of {@code length} slots, the first taking
     * sequence number {@code next} ({@link StoredTarget#UNKNOWN}: the legacy head row says, and is deleted), and
     * returns the number the entry after them takes.
     */
    static long append(KeyValueStore<Bytes, byte[]> rows, String targetId, List<TargetHistory.Entry> entries,
                       int length, long next) {
        if (length > MAX_LENGTH) {
            throw new IllegalArgumentException("history.length: " + length + " (expected: at most " + MAX_LENGTH + ")");
        }
        if (next == StoredTarget.UNKNOWN) {
            Bytes head = key(targetId, HEAD);
            byte[] legacy = rows.get(head);
            next = nextSequence(rows, legacy, targetId);
            if (legacy != null) {
                rows.delete(head);
            }
        }
        if (entries.isEmpty() || length <= 0) {
            return next;
        }
        for (TargetHistory.Entry entry : entries) {
            rows.put(key(targetId, (int) (next % length)), encode(next, entry));
            next++;
        }
        return next;
    }

    /**
     * The sequence number the next entry takes by a legacy head row ({@code null}: none, 0). A head that cannot be
     * read (a corrupt store) is rebuilt from the rows that can: one past the newest of them (0 when none can be
     * read). The history is evidence, not state: a result must not be refused for it.
     */
    private static long nextSequence(KeyValueStore<Bytes, byte[]> rows, byte[] head, String targetId) {
        if (head == null) {
            return 0;
        }
        try {
            return decodeHead(head).getLong();
        } catch (SerializationException e) {
            long next = 0;
            int prefixLength = prefix(targetId).get().length;
            try (KeyValueIterator<Bytes, byte[]> it = rows.prefixScan(prefix(targetId), Serdes.Bytes().serializer())) {
                while (it.hasNext()) {
                    KeyValue<Bytes, byte[]> row = it.next();
                    int slot = slot(row.key.get(), prefixLength);
                    if (slot >= 0 && slot != HEAD && row.value != null) {
                        try {
                            next = Math.max(next, decode(row.value).key + 1);
                        } catch (SerializationException unreadable) {
                            // overwritten in its turn
                        }
                    }
                }
            }
            LOG.warn("history head of target {} rebuilt at {}: {}", RecordSafeHandlers.cut(targetId), next,
                    e.getMessage());
            return next;
        }
    }

    /**
     * The slot of a row key whose target prefix is {@code prefixLength} bytes ({@link #HEAD} for the head), or -1 for a
     * key of another shape (a longer id cannot share the prefix, the length prefix differs: defensive).
     */
    private static int slot(byte[] key, int prefixLength) {
        if (key.length != prefixLength + 2) {
            return -1;
        }
        return ((key[prefixLength] & 0xff) << 8) | (key[prefixLength + 1] & 0xff);
    }

    /** Deletes every row of {@code targetId}. */
    static void delete(KeyValueStore<Bytes, byte[]> rows, String targetId) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = rows.prefixScan(prefix(targetId), Serdes.Bytes().serializer())) {
            while (it.hasNext()) {
                keys.add(it.next().key);
            }
        }
        keys.forEach(rows::delete); // after the iterator is closed: stores need not allow writes while iterating
    }

    /**
     * {@code targetId}'s entries, oldest first, at most the newest {@code length}; {@code null} when it has none (or
     * {@code length} is 0). Rows that cannot be decoded are left out, and so is a legacy head row.
     */
    public static TargetHistory read(ReadOnlyKeyValueStore<Bytes, byte[]> rows, String targetId, int length) {
        if (length <= 0) {
            return null;
        }
        List<KeyValue<Long, TargetHistory.Entry>> numbered = new ArrayList<>();
        int prefixLength = prefix(targetId).get().length;
        try (KeyValueIterator<Bytes, byte[]> it = rows.prefixScan(prefix(targetId), Serdes.Bytes().serializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> row = it.next();
                int slot = slot(row.key.get(), prefixLength);
                if (slot < 0 || slot == HEAD || row.value == null) {
                    continue;
                }
                try {
                    numbered.add(decode(row.value));
                } catch (SerializationException e) {
                    // a corrupt row is left out: evidence, not state
                }
            }
        }
        if (numbered.isEmpty()) {
            return null;
        }
        numbered.sort(Comparator.comparingLong(e -> e.key));
        List<TargetHistory.Entry> newest = new ArrayList<>();
        for (int i = Math.max(0, numbered.size() - length); i < numbered.size(); i++) {
            newest.add(numbered.get(i).value);
        }
        return new TargetHistory(newest);
    }

    /** The head's value, checked, positioned at its start (the next sequence number, then the length). */
    static ByteBuffer decodeHead(byte[] value) {
        if (value.length != HEAD_BYTES) {
            throw new SerializationException("target-history head: " + value.length + " bytes (expected: "
                    + HEAD_BYTES + ")");
        }
        ByteBuffer head = ByteBuffer.wrap(value);
        long next = head.getLong(0);
        int length = head.getInt(8);
        if (next < 0 || length < 1 || length > MAX_LENGTH) {
            throw new SerializationException("target-history head: next " + next + ", length " + length
                    + " (expected: 0 or more, 1.." + MAX_LENGTH + ")");
        }
        return head;
    }

    public static byte[] encode(long sequence, TargetHistory.Entry entry) {
        return BinaryFormat.encode(VERSION, out -> {
            out.writeLong(sequence);
            if (entry instanceof TargetHistory.Result r) {
                out.writeByte(RESULT);
                out.writeLong(r.atMs());
                writeString(out, r.region());
                writeString(out, r.outcome().name());
                out.writeLong(r.latencyMicros());
                writeNullableString(out, r.detail());
            } else if (entry instanceof TargetHistory.StatusChange c) {
                out.writeByte(STATUS_CHANGE);
                out.writeLong(c.atMs());
                writeNullableEnum(out, c.from());
                writeString(out, c.to().name());
            }
        });
    }

    static KeyValue<Long, TargetHistory.Entry> decode(byte[] value) {
        return BinaryFormat.decode(value, VERSION, "target-history row", in -> {
            long sequence = in.readLong();
            byte kind = in.readByte();
            long at = in.readLong();
            TargetHistory.Entry entry;
            if (kind == RESULT) {
                entry = new TargetHistory.Result(at, readString(in), readEnum(in, Outcome.class), in.readLong(),
                        readNullableString(in));
            } else if (kind == STATUS_CHANGE) {
                entry = new TargetHistory.StatusChange(at, readNullableEnum(in, HealthStatus.class),
                        readEnum(in, HealthStatus.class));
            } else {
                throw new IOException("entry kind: " + kind + " (expected: 1 or 2)");
            }
            return KeyValue.pair(sequence, entry);
        });
    }
}
