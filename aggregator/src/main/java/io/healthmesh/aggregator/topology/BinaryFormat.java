package io.healthmesh.aggregator.topology;

import org.apache.kafka.common.errors.SerializationException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Helpers of the compact binary format of the internal stores and the repartition topic: a leading format version
 * byte, then {@link DataOutputStream} primitives; enums by name (safe against reordering), nullable values behind a
 * presence flag.
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

    static byte[] encode(int version, Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams do not fail
        }
        return bytes.toByteArray();
    }

    static <T> T decode(byte[] data, int version, String what, Reader<T> reader) {
        if (data == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int found = in.readUnsignedByte();
            if (found != version) {
                throw new SerializationException(what + " format version: " + found + " (expected: " + version + ")");
            }
            return reader.read(in);
        } catch (IOException e) {
            throw new SerializationException(what + ": truncated or corrupt (" + e + ")", e);
        }
    }

    static void writeNullableString(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    static String readNullableString(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    static void writeNullableEnum(DataOutputStream out, Enum<?> value) throws IOException {
        writeNullableString(out, value == null ? null : value.name());
    }

    static <E extends Enum<E>> E readNullableEnum(DataInputStream in, Class<E> type) throws IOException {
        String name = readNullableString(in);
        return name == null ? null : Enum.valueOf(type, name);
    }

    static <E extends Enum<E>> E readEnum(DataInputStream in, Class<E> type) throws IOException {
        return Enum.valueOf(type, in.readUTF());
    }
}
