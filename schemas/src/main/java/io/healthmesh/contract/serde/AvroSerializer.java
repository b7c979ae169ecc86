package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegisteredSchema;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a record as magic byte 0, its schema id (big-endian int) and its Avro binary form: the
 * bytes Confluent's {@code KafkaAvroSerializer} writes. The id comes from registering the record's
 * schema ({@code auto.register.schemas}, default), from looking it up, or, with
 * {@code use.latest.version}, from the subject's latest version, which is then the writer schema.
 * Ids are cached by the client: one registry call per subject, not per record.
 */
final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {

    /** How to write under one latest version: its id and a writer for its schema. */
    private record LatestWriter(int id, DatumWriter<Object> writer, boolean transcode, Schema schema) {
    }

    private final Class<T> type;
    private final Schema schema;
    private final String schemaText;
    private final SpecificDatumWriter<T> writer;
    private final SchemaRegistryClient client;
    private final SerdeConfig config;
    private final boolean isKey;
    private final Map<Integer, LatestWriter> latestWriters = new ConcurrentHashMap<>();
    /** The id per topic: the record's schema is fixed, so the topic decides the subject and the id. */
    private final Map<String, Integer> idsByTopic = new ConcurrentHashMap<>();

    AvroSerializer(Class<T> type, SchemaRegistryClient client, SerdeConfig config, boolean isKey) {
        this.type = type;
        SpecificData model = SpecificData.getForClass(type);
        this.schema = model.getSchema(type);
        this.schemaText = schema.toString();
        this.writer = new SpecificDatumWriter<>(schema, model);
        this.client = client;
        this.config = config;
        this.isKey = isKey;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        Integer known = idsByTopic.get(topic);
        if (known != null) {
            return encode(known, writer, data);
        }
        String subject = WireFormat.subject(topic, isKey);
        try {
            if (config.useLatestVersion()) {
                RegisteredSchema latest = client.latest(subject);
                LatestWriter latestWriter = latestWriters.computeIfAbsent(latest.id(), id -> latestWriter(subject, latest));
                if (latestWriter.transcode()) {
                    return encode(latestWriter.id(), latestWriter.writer(), transcode(data, latestWriter.schema()));
                }
                return encode(latestWriter.id(), latestWriter.writer(), data);
            }
            return encode(ownSchemaId(topic), writer, data);
        } catch (RegistryException e) {
            throw noSchemaId(subject, e);
        }
    }

    /**
     * The id this serializer writes the record's own schema under on {@code topic} (not the {@code use.latest.version}
     * path): registered or looked up once per topic, then cached for the life of the serializer.
     *
     * @throws SerializationException when the registry cannot give one
     */
    int schemaId(String topic) {
        Integer known = idsByTopic.get(topic);
        if (known != null) {
            return known;
        }
        try {
            return ownSchemaId(topic);
        } catch (RegistryException e) {
            throw noSchemaId(WireFormat.subject(topic, isKey), e);
        }
    }

    private int ownSchemaId(String topic) {
        String subject = WireFormat.subject(topic, isKey);
        int id = config.autoRegister() ? client.register(subject, schemaText) : client.lookup(subject, schemaText).id();
        idsByTopic.put(topic, id);
        return id;
    }

    private SerializationException noSchemaId(String subject, RegistryException e) {
        return new SerializationException("Cannot get a schema id for subject '" + subject + "' (" + type.getSimpleName()
                + "): " + e.getMessage() + " (error code " + e.errorCode() + ")", e);
    }

    @SuppressWarnings("unchecked")
    private LatestWriter latestWriter(String subject, RegisteredSchema latest) {
        Schema latestSchema = SchemaRegistry.parse(latest.schema());
        if (latestSchema.equals(schema)) {
            return new LatestWriter(latest.id(), (DatumWriter<Object>) (DatumWriter<?>) writer, false, latestSchema);
        }
        var compatibility = SchemaCompatibility.checkReaderWriterCompatibility(latestSchema, schema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new SerializationException("use.latest.version: the latest schema of subject '" + subject + "' (id "
                    + latest.id() + ") cannot hold a " + type.getSimpleName() + ": " + compatibility.getDescription());
        }
        return new LatestWriter(latest.id(), new GenericDatumWriter<>(latestSchema), true, latestSchema);
    }

    /** Rewrites a record under another (compatible) schema, through Avro's schema resolution. */
    private Object transcode(T data, Schema target) {
        byte[] own = encode(-1, writer, data);
        try {
            return new GenericDatumReader<>(schema, target)
                    .read(null, DecoderFactory.get().binaryDecoder(own, WireFormat.HEADER_SIZE, own.length - WireFormat.HEADER_SIZE, null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot rewrite a " + type.getSimpleName() + " under the latest schema: " + e.getMessage(), e);
        }
    }

    private <D> byte[] encode(int id, DatumWriter<D> datumWriter, D data) {
        byte[] header = {WireFormat.MAGIC_BYTE, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
        try {
            return AvroBytes.write(header, datumWriter, data);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot write a " + type.getSimpleName() + " as Avro: " + e.getMessage(), e);
        }
    }
}
