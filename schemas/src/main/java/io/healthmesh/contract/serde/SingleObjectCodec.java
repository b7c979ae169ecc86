package io.healthmesh.contract.serde;

import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static java.util.Objects.requireNonNull;

/**
 * Avro's single-object encoding of one generated type ({@code C3 01}, the schema's 8-byte CRC-64-AVRO fingerprint,
 * the binary body), for a topic that must be readable without the schema registry: the endpoints topic, which the
 * registry's own role writes too and which must keep working as a defence layer while the registry is away. Only
 * the one schema of this build is read; the body is walked by {@link BoundedScan} before Avro allocates anything,
 * and bytes over {@code maxBytes} are refused unread.
 *
 * @param <T> the generated class
 */
public final class SingleObjectCodec<T extends SpecificRecord> {

    private static final int HEADER = 10;

    private final Schema schema;
    private final byte[] fingerprint;
    /** {@code C3 01} and the fingerprint: what every encoded value starts with. */
    private final byte[] header;
    private final int maxBytes;
    private final SpecificDatumWriter<T> writer;
    private final SpecificDatumReader<T> reader;

    /**
     * @param schema   the generated class's schema ({@code T.getClassSchema()})
     * @param maxBytes the largest encoded value accepted (header included)
     */
    public SingleObjectCodec(Schema schema, int maxBytes) {
        this.schema = requireNonNull(schema, "schema");
        if (maxBytes <= HEADER) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: more than " + HEADER + ")");
        }
        this.maxBytes = maxBytes;
        this.fingerprint = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(SchemaNormalization.parsingFingerprint64(schema)).array();
        this.header = ByteBuffer.allocate(2 + fingerprint.length).put((byte) 0xC3).put((byte) 0x01).put(fingerprint)
                .array();
        this.writer = new SpecificDatumWriter<>(schema);
        this.reader = new SpecificDatumReader<>(schema);
    }

    /** The encoded value. */
    public byte[] encode(T value) {
        try {
            return AvroBytes.write(header, writer, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The value of {@code bytes}.
     *
     * @throws RecordDecodeException when the bytes are too long, not single-object encoded, of another schema, or
     *                               not a value of it
     */
    public T decode(byte[] bytes) {
        requireNonNull(bytes, "bytes");
        if (bytes.length > maxBytes) {
            throw new RecordDecodeException(RecordDecodeException.Reason.UNDECODABLE,
                    bytes.length + " bytes (expected: at most " + maxBytes + ")");
        }
        if (bytes.length < HEADER || (bytes[0] & 0xFF) != 0xC3 || bytes[1] != 0x01) {
            throw new RecordDecodeException(RecordDecodeException.Reason.UNDECODABLE,
                    "not Avro single-object encoded (expected: C3 01 and a schema fingerprint)");
        }
        for (int i = 0; i < 8; i++) {
            if (bytes[2 + i] != fingerprint[i]) {
                throw new RecordDecodeException(RecordDecodeException.Reason.UNKNOWN_SCHEMA,
                        "written with another schema than " + schema.getFullName() + " of this build");
            }
        }
        try {
            BoundedScan.check(schema, bytes, HEADER, bytes.length - HEADER);
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, HEADER, bytes.length - HEADER, null);
            return reader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            throw new RecordDecodeException(RecordDecodeException.Reason.UNDECODABLE,
                    "not a " + schema.getName() + ": " + e.getMessage(), e);
        }
    }
}
