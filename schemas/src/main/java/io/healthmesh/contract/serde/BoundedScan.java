package io.healthmesh.contract.serde;

import org.apache.avro.Schema;

import java.util.List;

/**
 * A first pass over an Avro binary body that proves it can be read safely before Avro reads it for real: whoever
 * can register a writer schema can send any bytes under it, and Avro allocates a string, a bytes value or an
 * array at the size its prefix claims and recurses as deep as the data nests. This walk, driven by the writer
 * schema, refuses before anything is allocated or recursed:
 * <ul>
 *   <li>a string, bytes or fixed value longer than the bytes left;</li>
 *   <li>an array or map block whose item count exceeds the items the record may still hold (items of a
 *       zero-byte type, such as {@code null}, are otherwise free: a count of 2^62 would loop for ever);</li>
 *   <li>nesting deeper than {@link #MAX_DEPTH} (records, unions, arrays and maps, so a recursive schema cannot
 *       exhaust the stack);</li>
 *   <li>a union branch or enum symbol out of range, a varint longer than its type allows.</li>
 * </ul>
 * The walk itself is iterative over blocks and recursive only to the bounded depth; it allocates nothing.
 */
final class BoundedScan {

    /** Deepest nesting of records, unions, arrays and maps in one value (the contract's types nest 4 deep). */
    static final int MAX_DEPTH = 32;
    /** Items (array elements and map entries) a record may hold beyond one per byte. */
    static final int EXTRA_ITEMS = 10_000;

    private final byte[] bytes;
    private final int end;
    private final int[] fieldStarts;
    private int pos;
    private long itemBudget;

    private BoundedScan(byte[] bytes, int offset, int length, int[] fieldStarts) {
        this.bytes = bytes;
        this.pos = offset;
        this.end = offset + length;
        this.itemBudget = (long) length + EXTRA_ITEMS;
        this.fieldStarts = fieldStarts;
    }

    /** Walks {@code length} bytes from {@code offset} as one value of {@code writer}; they must be used exactly. */
    static void check(Schema writer, byte[] bytes, int offset, int length) {
        check(writer, bytes, offset, length, null);
    }

    /**
     * Like {@link #check(Schema, byte[], int, int)}, for a record {@code writer}, and notes where each of its own
     * fields starts in {@code bytes}: {@code fieldStarts[i]} for the writer's field {@code i} (the array holds one
     * slot per field at least). A reader that needs only a few fields can then read them there, without walking
     * the body a second time.
     */
    static void check(Schema writer, byte[] bytes, int offset, int length, int[] fieldStarts) {
        BoundedScan scan = new BoundedScan(bytes, offset, length, fieldStarts);
        scan.value(writer, 1);
        if (scan.pos != scan.end) {
            throw new Refused((scan.end - scan.pos) + " trailing bytes after the value");
        }
    }

    /** Why a body was refused; the deserializer turns it into {@code UNDECODABLE}. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private void value(Schema schema, int depth) {
        if (depth > MAX_DEPTH) {
            throw new Refused("nesting deeper than " + MAX_DEPTH + " levels");
        }
        switch (schema.getType()) {
            case NULL -> { }
            case BOOLEAN -> skip(1, "boolean");
            case INT -> varint(5, "int");
            case LONG -> varint(10, "long");
            case FLOAT -> skip(4, "float");
            case DOUBLE -> skip(8, "double");
            case STRING -> skip(length("string", "string length"), "string");
            case BYTES -> skip(length("bytes", "bytes length"), "bytes");
            case FIXED, ENUM -> named(schema);
            case UNION -> {
                List<Schema> branches = schema.getTypes();
                value(branches.get(index(branches.size(), "union branch")), depth + 1);
            }
            case RECORD -> {
                List<Schema.Field> fields = schema.getFields();
                boolean mark = depth == 1 && fieldStarts != null;
                for (int i = 0; i < fields.size(); i++) {
                    if (mark) {
                        fieldStarts[i] = pos;
                    }
                    value(fields.get(i).schema(), depth + 1);
                }
            }
            case ARRAY -> blocks(null, schema.getElementType(), depth + 1);
            case MAP -> blocks(Schema.create(Schema.Type.STRING), schema.getValueType(), depth + 1);
        }
    }

    /** A fixed or an enum; its name is spelt into the message only when it is refused (no string otherwise). */
    private void named(Schema schema) {
        try {
            if (schema.getType() == Schema.Type.FIXED) {
                skip(schema.getFixedSize(), "fixed");
            } else {
                index(schema.getEnumSymbols().size(), "enum");
            }
        } catch (Refused e) {
            throw new Refused(schema.getType().getName() + " " + schema.getFullName()
                    + e.getMessage().substring(schema.getType().getName().length()));
        }
    }

    private void blocks(Schema key, Schema item, int depth) {
        while (true) {
            long count = zigzag(varint(10, "block count"));
            if (count == 0) {
                return;
            }
            if (count < 0) {
                if (count == Long.MIN_VALUE) {
                    throw new Refused("block count " + count);
                }
                count = -count;
                long size = zigzag(varint(10, "block size"));
                if (size < 0 || size > end - pos) {
                    throw new Refused("block of " + size + " bytes with " + (end - pos) + " left");
                }
            }
            if (count > itemBudget) {
                throw new Refused("block of " + count + " items (expected: at most " + itemBudget + " more)");
            }
            itemBudget -= count;
            for (long i = 0; i < count; i++) {
                if (key != null) {
                    skip(length("map key", "map key length"), "map key");
                }
                value(item, depth);
            }
        }
    }

    private int index(int size, String what) {
        long index = zigzag(varint(5, what));
        if (index < 0 || index >= size) {
            throw new Refused(what + " " + index + " (expected: 0.." + (size - 1) + ")");
        }
        return (int) index;
    }

    /** A length prefix; {@code lengthWhat} is {@code what + " length"}, spelt out by the caller (no string per value). */
    private long length(String what, String lengthWhat) {
        long length = zigzag(varint(10, lengthWhat));
        if (length < 0 || length > end - pos) {
            throw new Refused(what + " of " + length + " bytes with " + (end - pos) + " left");
        }
        return length;
    }

    private void skip(long count, String what) {
        if (count > end - pos) {
            throw new Refused(what + ": " + count + " bytes with " + (end - pos) + " left");
        }
        pos += (int) count;
    }

    /** The raw (zig-zag encoded) varint, at most {@code maxBytes} long. */
    private long varint(int maxBytes, String what) {
        long raw = 0;
        for (int i = 0; i < maxBytes; i++) {
            if (pos >= end) {
                throw new Refused(what + ": truncated");
            }
            int b = bytes[pos++] & 0xff;
            raw |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return raw;
            }
        }
        throw new Refused(what + ": varint longer than " + maxBytes + " bytes");
    }

    private static long zigzag(long raw) {
        return (raw >>> 1) ^ -(raw & 1);
    }
}
