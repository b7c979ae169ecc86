package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads Confluent's wire format into a generated class: the writer schema is fetched by the id in
 * the header (once per id) and resolved against the class's schema, so records written by older
 * and newer producers both decode. Bytes that cannot be decoded raise a
 * {@link RecordDecodeException} saying why; a registry that cannot be reached a plain
 * {@link SerializationException} (the record may be fine).
 */
final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    /** How to read records of one writer id: a reader, or why they cannot be read as {@code T}. */
    private record WriterReader<T>(Schema writerSchema, SpecificDatumReader<T> reader, String refusal) {
    }

    private final Class<T> type;
    private final SpecificData model;
    private final Schema readerSchema;
    private final SchemaRegistryClient client;
    private final Map<Integer, WriterReader<T>> readers = new ConcurrentHashMap<>();

    AvroDeserializer(Class<T> type, SchemaRegistryClient client) {
        this.type = type;
        this.model = SpecificData.getForClass(type);
        this.readerSchema = model.getSchema(type);
        this.client = client;
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        int id = WireFormat.schemaId(bytes);
        WriterReader<T> writerReader = readers.get(id);
        if (writerReader == null) {
            writerReader = writerReader(id);
            readers.put(id, writerReader);
        }
        if (writerReader.refusal() != null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, writerReader.refusal());
        }
        try {
            // Avro allocates a string, bytes or array at the size its prefix claims and recurses as deep as the data
            // nests: a first pass proves every length, count and depth is within bounds before Avro reads anything
            BoundedScan.check(writerReader.writerSchema(), bytes, WireFormat.HEADER_SIZE,
                    bytes.length - WireFormat.HEADER_SIZE);
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, WireFormat.HEADER_SIZE,
                    bytes.length - WireFormat.HEADER_SIZE, null);
            return writerReader.reader().read(null, decoder);
        } catch (RecordDecodeException e) {
            throw e;
        } catch (BoundedScan.Refused e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a " + type.getSimpleName()
                    + " written with schema id " + id + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a " + type.getSimpleName()
                    + " written with schema id " + id + ": " + e, e);
        }
    }

    private WriterReader<T> writerReader(int id) {
        WriterCheck check = WriterCheck.of(client, id, readerSchema, type.getSimpleName());
        if (check.refusal() != null) {
            return new WriterReader<>(check.writer(), null, check.refusal());
        }
        try {
            return new WriterReader<>(check.writer(), new SpecificDatumReader<>(check.writer(), readerSchema, model), null);
        } catch (RuntimeException | StackOverflowError e) {
            // a hostile schema (absurdly nested, say) must be refused like any unreadable one, not stop the worker
            return new WriterReader<>(null, null, WriterCheck.unusable(id, e).refusal());
        }
    }
}
