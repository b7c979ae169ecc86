package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.maintenance.MaintenanceMode;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The layout of the {@code group-members} store: one row per (group, member), so a member change writes its own
 * row and never the whole group. A key is the group id's UTF-8 byte count (4 bytes, big-endian), the group id, a
 * kind byte and the member's target id (UTF-8); the length prefix keeps one group's rows together and apart from
 * every other group's, whatever characters the ids hold. Three kinds:
 * <ul>
 *   <li>{@link #MEMBER} ({@code 'M'}): every member; the value is a format version byte and the member's status
 *       code ({@link #encodeStatus}).</li>
 *   <li>{@link #ROUTABLE} ({@code 'R'}): the members whose status is routable (HEALTHY, DISABLED), an index so that
 *       the first routable ids of a group are read without walking its other members; the value is one byte.</li>
 *   <li>{@link #WINDOW} ({@code 'W'}), one row per group with an empty member id: the maintenance window the group's
 *       last event carried ({@link #encodeWindow}), absent when it carried none. Readers of the two kinds above read
 *       their own kind's key range and never meet it.</li>
 * </ul>
 * Rows of one kind of one group are read in key order, that is by the target ids' UTF-8 bytes.
 */
final class GroupRows {

    /** Kind byte of a member row. */
    static final byte MEMBER = 'M';
    /** Kind byte of a routable-index row. */
    static final byte ROUTABLE = 'R';
    /** Kind byte of the group's maintenance row. */
    static final byte WINDOW = 'W';
    /** The value of a routable-index row (RocksDB takes no empty values as present). */
    static final byte[] PRESENT = {1};
    /** Format version of a member row's value. */
    static final int VALUE_VERSION = 1;
    /** Format version of a maintenance row's value. */
    static final int WINDOW_VERSION = 1;

    private static final HealthStatus[] STATUSES = {HealthStatus.HEALTHY, HealthStatus.UNHEALTHY,
            HealthStatus.DETECTING, HealthStatus.DISABLED};

    private GroupRows() {
    }

    /** The key of {@code memberId}'s row of kind {@code kind} in {@code groupId}. */
    static Bytes key(String groupId, byte kind, String memberId) {
        byte[] group = groupId.getBytes(StandardCharsets.UTF_8);
        byte[] member = memberId.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(4 + group.length + 1 + member.length)
                .putInt(group.length).put(group).put(kind).put(member).array());
    }

    /** The prefix every row of kind {@code kind} of {@code groupId} starts with (a key with an empty member id). */
    static Bytes prefix(String groupId, byte kind) {
        return key(groupId, kind, "");
    }

    /** The target id of a row whose key starts with a prefix of {@code prefixLength} bytes. */
    static String memberId(Bytes key, int prefixLength) {
        byte[] k = key.get();
        return new String(k, prefixLength, k.length - prefixLength, StandardCharsets.UTF_8);
    }

    /** A member row's value: format version, then one status code byte (fixed codes, safe against reordering). */
    static byte[] encodeStatus(HealthStatus status) {
        for (int code = 0; code < STATUSES.length; code++) {
            if (STATUSES[code] == status) {
                return new byte[] {VALUE_VERSION, (byte) code};
            }
        }
        throw new IllegalArgumentException("status: " + status + " (expected: one of HEALTHY, UNHEALTHY, DETECTING,"
                + " DISABLED)");
    }

    /** Reads a member row's value; null stays null (no row). */
    static HealthStatus decodeStatus(byte[] value) {
        if (value == null) {
            return null;
        }
        if (value.length != 2 || value[0] != VALUE_VERSION || value[1] < 0 || value[1] >= STATUSES.length) {
            throw new SerializationException("group-members row: " + value.length + " bytes (expected: format version "
                    + VALUE_VERSION + " and a status code 0.." + (STATUSES.length - 1) + ")");
        }
        return STATUSES[value[1]];
    }

    /** The key of {@code groupId}'s maintenance row. */
    static Bytes windowKey(String groupId) {
        return prefix(groupId, WINDOW);
    }

    /** A maintenance row's value: format version, then the window's id, mode, start and planned end. */
    static byte[] encodeWindow(MaintenanceRow.Emitted window) {
        return BinaryFormat.encode(WINDOW_VERSION, out -> {
            BinaryFormat.writeString(out, window.id());
            BinaryFormat.writeString(out, window.mode().name());
            out.writeLong(window.startMs());
            out.writeLong(window.untilMs());
        });
    }

    /** Reads a maintenance row's value; null stays null (no row: the last event carried no window). */
    static MaintenanceRow.Emitted decodeWindow(byte[] value) {
        return BinaryFormat.decode(value, WINDOW_VERSION, "group-members maintenance row",
                in -> new MaintenanceRow.Emitted(BinaryFormat.readString(in),
                        BinaryFormat.readEnum(in, MaintenanceMode.class), in.readLong(), in.readLong()));
    }
}
