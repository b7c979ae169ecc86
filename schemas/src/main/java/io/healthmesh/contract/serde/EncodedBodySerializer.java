package io.healthmesh.contract.serde;

import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * Writes a record whose Avro binary body was encoded already, under the generated class's own schema, in the wire
 * format {@link AvroSerializer} writes: the header with the schema id the record serializer registers or looks up
 * (once per topic), then the body as it is. Whoever checked a record's size on its encoded bytes sends those bytes
 * without encoding the record again. Under {@code use.latest.version} the writer schema may be another one: the body
 * is then read back and written through the record serializer, which rewrites it.
 *
 * @param <T> the generated record class the bodies were encoded from
 */
final class EncodedBodySerializer<T extends SpecificRecord> implements Serializer<byte[]> {

    private final AvroSerializer<T> records;
    private final SpecificDatumReader<T> reader;
    private final boolean rewrite;

    EncodedBodySerializer(Class<T> type, AvroSerializer<T> records, SerdeConfig config) {
        this.records = requireNonNull(records, "records");
        this.reader = new SpecificDatumReader<>(type);
        this.rewrite = config.useLatestVersion();
    }

    @Override
    public byte[] serialize(String topic, byte[] body) {
        if (body == null) {
            return null;
        }
        if (rewrite) {
            return records.serialize(topic, read(body));
        }
        int id = records.schemaId(topic);
        byte[] out = new byte[WireFormat.HEADER_SIZE + body.length];
        out[0] = WireFormat.MAGIC_BYTE;
        out[1] = (byte) (id >>> 24);
        out[2] = (byte) (id >>> 16);
        out[3] = (byte) (id >>> 8);
        out[4] = (byte) id;
        System.arraycopy(body, 0, out, WireFormat.HEADER_SIZE, body.length);
        return out;
    }

    private T read(byte[] body) {
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(body, null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot read an encoded body back: " + e.getMessage(), e);
        }
    }
}
