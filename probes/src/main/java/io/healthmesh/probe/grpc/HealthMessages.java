package io.healthmesh.probe.grpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * The two protobuf messages of {@code grpc.health.v1}, by hand: {@code HealthCheckRequest { string service = 1; }}
 * and {@code HealthCheckResponse { ServingStatus status = 1; }}, each in gRPC's length-prefixed framing (a
 * compression flag byte, a 4-byte big-endian length, the message). A response is read with unknown fields skipped, as
 * protobuf readers do, and anything malformed refused with a fixed text that quotes none of its bytes.
 */
final class HealthMessages {

    /** {@code ServingStatus} values. */
    static final int UNKNOWN = 0;
    static final int SERVING = 1;
    static final int NOT_SERVING = 2;
    static final int SERVICE_UNKNOWN = 3;

    /** The gRPC message prefix: compression flag and length. */
    static final int PREFIX_BYTES = 5;

    private static final int FIELD_SERVICE = 0x0A; // field 1, wire type 2 (length-delimited)
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH = 2;
    private static final int WIRE_FIXED32 = 5;

    private HealthMessages() {
    }

    /** The framed request for {@code service} (empty: the server as a whole, an empty message). */
    static ByteBuf request(ByteBufAllocator alloc, String service) {
        byte[] name = service.getBytes(StandardCharsets.UTF_8);
        int messageBytes = name.length == 0 ? 0 : 1 + varintSize(name.length) + name.length;
        ByteBuf out = alloc.buffer(PREFIX_BYTES + messageBytes);
        out.writeByte(0).writeInt(messageBytes);
        if (name.length > 0) {
            out.writeByte(FIELD_SERVICE);
            writeVarint(out, name.length);
            out.writeBytes(name);
        }
        return out;
    }

    /**
     * The {@code status} of the framed response in {@code frame}'s readable bytes (proto3: absent means
     * {@code UNKNOWN}, 0).
     *
     * @throws IllegalArgumentException with a fixed text when the frame is not one well-formed, uncompressed message
     */
    static int status(ByteBuf frame) {
        if (frame.readableBytes() < PREFIX_BYTES) {
            throw new IllegalArgumentException("no complete response message");
        }
        int at = frame.readerIndex();
        if (frame.getByte(at) != 0) {
            throw new IllegalArgumentException("a compressed response message (none was offered)");
        }
        long length = frame.getUnsignedInt(at + 1);
        if (length != frame.readableBytes() - PREFIX_BYTES) {
            throw new IllegalArgumentException(length > frame.readableBytes() - PREFIX_BYTES
                    ? "no complete response message" : "more than one response message");
        }
        ByteBuf message = frame.slice(at + PREFIX_BYTES, (int) length);
        int status = UNKNOWN;
        while (message.isReadable()) {
            long key = readVarint(message);
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            if (field == 1 && wire == WIRE_VARINT) {
                status = (int) readVarint(message); // an enum is an int32: a larger value keeps its low bits
            } else {
                skip(message, wire);
            }
        }
        return status;
    }

    /** The name of a {@code ServingStatus}, or its number for one the protocol does not define. */
    static String servingStatusName(int status) {
        return switch (status) {
            case UNKNOWN -> "UNKNOWN";
            case SERVING -> "SERVING";
            case NOT_SERVING -> "NOT_SERVING";
            case SERVICE_UNKNOWN -> "SERVICE_UNKNOWN";
            default -> "serving status " + status + " (not a value of grpc.health.v1)";
        };
    }

    private static void skip(ByteBuf message, int wire) {
        switch (wire) {
            case WIRE_VARINT -> readVarint(message);
            case WIRE_FIXED64 -> skipBytes(message, 8);
            case WIRE_LENGTH -> {
                long length = readVarint(message);
                if (length > message.readableBytes()) {
                    throw new IllegalArgumentException("a malformed response message (a field runs past its end)");
                }
                skipBytes(message, (int) length);
            }
            case WIRE_FIXED32 -> skipBytes(message, 4);
            default -> throw new IllegalArgumentException("a malformed response message (wire type " + wire + ")");
        }
    }

    private static void skipBytes(ByteBuf message, int count) {
        if (count > message.readableBytes()) {
            throw new IllegalArgumentException("a malformed response message (a field runs past its end)");
        }
        message.skipBytes(count);
    }

    private static long readVarint(ByteBuf in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (!in.isReadable()) {
                throw new IllegalArgumentException("a malformed response message (a number runs past its end)");
            }
            byte b = in.readByte();
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a malformed response message (a number longer than 10 bytes)");
    }

    private static void writeVarint(ByteBuf out, int value) {
        int v = value;
        while ((v & ~0x7f) != 0) {
            out.writeByte((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.writeByte(v);
    }

    private static int varintSize(int value) {
        int size = 1;
        for (int v = value >>> 7; v != 0; v >>>= 7) {
            size++;
        }
        return size;
    }
}
