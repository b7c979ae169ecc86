package io.healthmesh.aggregator.topology;

import org.apache.kafka.common.errors.SerializationException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Helpers of the compact binary format of the internal stores and the repartition topic: a leading format version
 * byte, then {@link DataOutputStream} primitives; enums by name (safe against reordering), nullable values behind a
 * presence flag.
 *
 * <p>A string is an {@code int} byte count and its UTF-8 bytes, so any string the validator lets through can be
 * stored ({@link DataOutputStream#writeUTF} throws above 65,535 encoded bytes). Each serde reads its current format
 * version only: a record of any other version fails with a {@link SerializationException} naming the version found
 * and the one expected. Counts and lengths read are checked against the bytes left before anything is allocated: a
 * corrupt record fails with a {@link SerializationException}, not an {@link OutOfMemoryError}.
 *
 * <p>The streams under {@link DataInputStream} and {@link DataOutputStream} are this class's own, unsynchronised
 * ones: {@link java.io.ByteArrayInputStream}'s methods are {@code synchronized}, and with a lock per byte read the
 * stores' decoding was the aggregator's hottest code (a JFR profile of a catch-up run).
 */
final class BinaryFormat {

    private BinaryFormat() {
    }

    /** Writes a value. */
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads a value. */
    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    /** A byte array read without locks (one thread decodes one record). */
    private static final class Bytes extends InputStream {
        private final byte[] data;
        private int position;
        private final int end;

        Bytes(byte[] data, int offset) {
            this.data = data;
            this.position = offset;
            this.end = data.length;
        }

        @Override
        public int read() {
            return position < end ? data[position++] & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (position >= end) {
                return -1;
            }
            int n = Math.min(length, end - position);
            System.arraycopy(data, position, into, offset, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return end - position;
        }
    }

    /** A growing byte array written without locks. */
    private static final class Buffer extends OutputStream {
        private byte[] data = new byte[256];
        private int size;

        @Override
        public void write(int b) {
            ensure(1);
            data[size++] = (byte) b;
        }

        @Override
        public void write(byte[] from, int offset, int length) {
            ensure(length);
            System.arraycopy(from, offset, data, size, length);
            size += length;
        }

        private void ensure(int more) {
            if (size + more > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, size + more));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(data, size);
        }
    }

    /** The input of one record, knowing how many bytes are left. */
    private static final class BoundedInput extends DataInputStream {
        private final Bytes bytes;

        BoundedInput(Bytes bytes) {
            super(bytes);
            this.bytes = bytes;
        }
    }

    static byte[] encode(int version, Writer writer) {
        Buffer bytes = new Buffer();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams do not fail
        }
        return bytes.toByteArray();
    }

    /** Decodes a record of format {@code version}; any other version byte is a {@link SerializationException}. */
    static <T> T decode(byte[] data, int version, String what, Reader<T> reader) {
        if (data == null) {
            return null;
        }
        if (data.length == 0) {
            throw new SerializationException(what + ": 0 bytes (expected: a format version byte)");
        }
        int found = data[0] & 0xff;
        if (found != version) {
            throw new SerializationException(what + " format version: " + found + " (expected: " + version + ")");
        }
        try (BoundedInput in = new BoundedInput(new Bytes(data, 1))) {
            return reader.read(in);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException(what + ": truncated or corrupt (" + e + ")", e);
        }
    }

    /** A string of any length: an {@code int} byte count, then UTF-8. */
    static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        int left = ((BoundedInput) in).bytes.available();
        if (length < 0 || length > left) {
            throw new IOException("string of " + length + " bytes with " + left + " left");
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A count of elements that follow, each at least one byte: never more than the bytes left. */
    static int readCount(DataInputStream in) throws IOException {
        int count = in.readInt();
        int left = ((BoundedInput) in).bytes.available();
        if (count < 0 || count > left) {
            throw new IOException("count " + count + " with " + left + " bytes left");
        }
        return count;
    }

    static void writeNullableString(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            writeString(out, value);
        }
    }

    static String readNullableString(DataInputStream in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    static void writeNullableEnum(DataOutputStream out, Enum<?> value) throws IOException {
        writeNullableString(out, value == null ? null : value.name());
    }

    static <E extends Enum<E>> E readNullableEnum(DataInputStream in, Class<E> type) throws IOException {
        return in.readBoolean() ? readEnum(in, type) : null;
    }

    /**
     * An enum written by {@link #writeNullableEnum}'s way (its name as a string): the stored bytes are matched against
     * each constant's name where they lie, so no string is made and hashed for every enum of every record read.
     *
     * @throws IllegalArgumentException when no constant of {@code type} has that name (as {@link Enum#valueOf})
     */
    static <E extends Enum<E>> E readEnum(DataInputStream in, Class<E> type) throws IOException {
        int length = in.readInt();
        Bytes bytes = ((BoundedInput) in).bytes;
        int left = bytes.available();
        if (length < 0 || length > left) {
            throw new IOException("string of " + length + " bytes with " + left + " left");
        }
        E found = type.cast(ENUM_NAMES.get(type).find(bytes.data, bytes.position, length));
        if (found == null) {
            throw new IllegalArgumentException("No enum constant " + type.getCanonicalName() + "."
                    + new String(bytes.data, bytes.position, length, StandardCharsets.UTF_8));
        }
        bytes.position += length;
        return found;
    }

    private static final ClassValue<EnumNames> ENUM_NAMES = new ClassValue<>() {
        @Override
        protected EnumNames computeValue(Class<?> type) {
            return new EnumNames(type.getEnumConstants());
        }
    };

    /** The constants of one enum with their names' UTF-8 bytes. */
    private static final class EnumNames {
        private final Object[] constants;
        private final byte[][] names;

        EnumNames(Object[] constants) {
            this.constants = constants;
            this.names = new byte[constants.length][];
            for (int i = 0; i < constants.length; i++) {
                names[i] = ((Enum<?>) constants[i]).name().getBytes(StandardCharsets.UTF_8);
            }
        }

        /** The constant whose name is {@code data[from, from + length)}, or null. */
        Object find(byte[] data, int from, int length) {
            for (int i = 0; i < names.length; i++) {
                if (Arrays.equals(names[i], 0, names[i].length, data, from, from + length)) {
                    return constants[i];
                }
            }
            return null;
        }
    }
}
