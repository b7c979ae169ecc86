package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.UnknownTargetHold;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The probe results one task holds for targets it has no definition of yet ({@link UnknownTargetHold} says for how
 * long, and what becomes of them). They live in the {@code unknown-target-results} store, one row per target with
 * its held records as they were read (bytes, headers, timestamp, where they came from), so that a restart or a
 * rebalance neither loses them nor applies them twice: the input offsets are committed past them. An index in
 * memory, in the order they were read and rebuilt from the store when the task starts, finds the ones that waited
 * long enough without reading the store. Not thread-safe: it belongs to one task's processor.
 */
final class HeldResults {

    /** A held result: the record as read, when it was read (wall clock), and where it came from. */
    record Held(byte[] key, byte[] value, Headers headers, long timestampMs, long heldAtMs, String topic,
                int partition, long offset) implements RecordMetadata {

        static Held of(Record<byte[], byte[]> record, RecordMetadata source, long heldAtMs) {
            return new Held(record.key(), record.value(), new RecordHeaders(record.headers().toArray()),
                    record.timestamp(), heldAtMs, source.topic(), source.partition(), source.offset());
        }

        /** Key, value and headers: what the hold bounds ({@link UnknownTargetHold#MAX_HELD_BYTES}). */
        long size() {
            return RecordSafeHandlers.size(key, value, headers);
        }
    }

    /** What holding a result did: whether it is held, and a result of the same target it pushed out, if any. */
    record Outcome(boolean held, Held pushedOut) {
    }

    private record Ref(String targetId, long offset, long timestampMs, long heldAtMs) {
    }

    private final UnknownTargetHold rule;
    private final KeyValueStore<String, byte[]> store;
    private final Deque<Ref> order = new ArrayDeque<>();
    private long count;
    private long definitionsReadToMs = Long.MIN_VALUE;

    /** Reads the store (restored by now) into the index. */
    HeldResults(UnknownTargetHold rule, KeyValueStore<String, byte[]> store) {
        this.rule = requireNonNull(rule, "rule");
        this.store = requireNonNull(store, "store");
        List<Ref> refs = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<String, byte[]> row = all.next();
                List<Held> held = decode(row.value);
                if (held == null) {
                    unreadable.add(row.key);
                    continue;
                }
                held.forEach(h -> refs.add(new Ref(row.key, h.offset(), h.timestampMs(), h.heldAtMs())));
            }
        }
        unreadable.forEach(store::delete);
        refs.sort(Comparator.comparingLong(Ref::heldAtMs));
        order.addAll(refs);
        count = refs.size();
    }

    /** Results held now. */
    long count() {
        return count;
    }

    /** The task read a definition (or a deletion) stamped {@code timestampMs}. */
    void definitionRead(long timestampMs) {
        definitionsReadToMs = Math.max(definitionsReadToMs, timestampMs);
    }

    /**
     * Holds {@code held} for {@code targetId} unless the hold is off, full, or the record too large; the target's
     * oldest held result is pushed out when it already has {@link UnknownTargetHold#MAX_PER_TARGET}.
     */
    Outcome hold(String targetId, Held held) {
        if (!rule.enabled() || count >= rule.maxHeldPerTask() || held.size() > UnknownTargetHold.MAX_HELD_BYTES) {
            return new Outcome(false, null);
        }
        List<Held> row = load(targetId);
        Held pushedOut = null;
        if (row.size() >= UnknownTargetHold.MAX_PER_TARGET) {
            pushedOut = row.remove(0);
            count--;
        }
        row.add(held);
        store.put(targetId, encode(row));
        order.addLast(new Ref(targetId, held.offset(), held.timestampMs(), held.heldAtMs()));
        count++;
        return new Outcome(true, pushedOut);
    }

    /** Takes every result held for {@code targetId}, oldest first (its definition or deletion was read). */
    List<Held> release(String targetId) {
        if (count == 0) {
            return List.of(); // nothing held, the common case: no read of the store per definition
        }
        List<Held> row = load(targetId);
        if (!row.isEmpty()) {
            store.delete(targetId);
            count -= row.size();
            row.sort(Comparator.comparingLong(Held::timestampMs));
        }
        return row; // the index's references to them are dropped when they come up
    }

    /**
     * Takes the held results that waited long enough at wall-clock time {@code nowMs} ({@link
     * UnknownTargetHold#settled}), at most {@code max}, in the order they were read.
     */
    List<Held> settle(long nowMs, int max) {
        List<Held> settled = new ArrayList<>();
        while (!order.isEmpty() && settled.size() < max) {
            Ref ref = order.peekFirst();
            List<Held> row = load(ref.targetId());
            int at = indexOf(row, ref.offset());
            if (at < 0) {
                order.pollFirst(); // released or pushed out since
                continue;
            }
            if (!rule.settled(ref.timestampMs(), ref.heldAtMs(), nowMs, definitionsReadToMs)) {
                break; // the later ones were read later: one of them may be settled by its timestamp, not long after
            }
            order.pollFirst();
            settled.add(row.remove(at));
            count--;
            if (row.isEmpty()) {
                store.delete(ref.targetId());
            } else {
                store.put(ref.targetId(), encode(row));
            }
        }
        return settled;
    }

    private List<Held> load(String targetId) {
        byte[] bytes = store.get(targetId);
        List<Held> row = bytes == null ? null : decode(bytes);
        return row == null ? new ArrayList<>() : row;
    }

    private static int indexOf(List<Held> row, long offset) {
        for (int i = 0; i < row.size(); i++) {
            if (row.get(i).offset() == offset) {
                return i;
            }
        }
        return -1;
    }

    // Row layout, version 1: [version byte] then per result: timestamp, heldAt (long), partition (int), offset
    // (long), topic, key, value (each as int length then bytes, -1 for null), header count (int) and per header
    // its key (length then UTF-8) and value (length then bytes, -1 for null).
    private static final byte VERSION = 1;

    static byte[] encode(List<Held> row) {
        int size = 1;
        for (Held h : row) {
            size += 8 + 8 + 4 + 8 + 4 + utf8(h.topic()).length + 4 + length(h.key()) + 4 + length(h.value()) + 4;
            for (Header header : h.headers()) {
                size += 4 + utf8(header.key()).length + 4 + length(header.value());
            }
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(VERSION);
        for (Held h : row) {
            out.putLong(h.timestampMs()).putLong(h.heldAtMs()).putInt(h.partition()).putLong(h.offset());
            put(out, utf8(h.topic()));
            put(out, h.key());
            put(out, h.value());
            Header[] headers = h.headers().toArray();
            out.putInt(headers.length);
            for (Header header : headers) {
                put(out, utf8(header.key()));
                put(out, header.value());
            }
        }
        return out.array();
    }

    /** The row's results, or {@code null} when the bytes are not a row this version wrote. */
    static List<Held> decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            if (in.get() != VERSION) {
                return null;
            }
            List<Held> row = new ArrayList<>();
            while (in.hasRemaining()) {
                long timestamp = in.getLong();
                long heldAt = in.getLong();
                int partition = in.getInt();
                long offset = in.getLong();
                String topic = new String(get(in), StandardCharsets.UTF_8);
                byte[] key = get(in);
                byte[] value = get(in);
                int headerCount = in.getInt();
                if (headerCount < 0 || headerCount > in.remaining()) {
                    return null;
                }
                RecordHeaders headers = new RecordHeaders();
                for (int i = 0; i < headerCount; i++) {
                    headers.add(new String(get(in), StandardCharsets.UTF_8), get(in));
                }
                row.add(new Held(key, value, headers, timestamp, heldAt, topic, partition, offset));
            }
            return row;
        } catch (BufferUnderflowException | IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    private static void put(ByteBuffer out, byte[] bytes) {
        if (bytes == null) {
            out.putInt(-1);
        } else {
            out.putInt(bytes.length).put(bytes);
        }
    }

    private static byte[] get(ByteBuffer in) {
        int length = in.getInt();
        if (length < -1 || length > in.remaining()) {
            throw new IllegalArgumentException("length " + length);
        }
        if (length == -1) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
