package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.schema.ProbeResult;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The Kafka serde of one generated Avro record type, in Confluent's wire format: magic byte 0, the
 * 4-byte big-endian schema id, the Avro binary body; subject {@code <topic>-value}
 * ({@code <topic>-key} for keys), Confluent's TopicNameStrategy. Configured with Confluent's keys:
 * {@code schema.registry.url} (required; {@code mem://<scope>} for an in-process registry),
 * {@code auto.register.schemas} (default true), {@code use.latest.version} (default false),
 * {@code basic.auth.credentials.source} ({@code URL} or {@code USER_INFO}), {@code basic.auth.user.info}.
 * A null value is written as null bytes and null bytes read as null (tombstones).
 * Thread-safe once configured.
 *
 * @param <T> the generated record class
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {

    private final Class<T> type;
    private volatile SchemaRegistryClient client;
    private volatile Serializer<T> serializer;
    private volatile Serializer<byte[]> encodedSerializer;
    private volatile AvroDeserializer<T> deserializer;

    /** An unconfigured serde; call {@link #configure} before use (or use {@link #forValues}). */
    public AvroSerde(Class<T> type) {
        this.type = requireNonNull(type, "type");
    }

    /** A serde for record values, configured with Confluent's serde keys. */
    public static <T extends SpecificRecord> AvroSerde<T> forValues(Class<T> type, Map<String, ?> serdeConfig) {
        AvroSerde<T> serde = new AvroSerde<>(type);
        serde.configure(serdeConfig, false);
        return serde;
    }

    /** A serde on a given client (tests count the registry calls through it). */
    static <T extends SpecificRecord> AvroSerde<T> withClient(Class<T> type, SchemaRegistryClient client, Map<String, ?> serdeConfig) {
        AvroSerde<T> serde = new AvroSerde<>(type);
        serde.configure(client, SerdeConfig.from(serdeConfig), false);
        return serde;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        requireNonNull(configs, "configs");
        SerdeConfig serdeConfig = SerdeConfig.from(configs);
        configure(RegistryClients.fromConfig(configs), serdeConfig, isKey);
    }

    private void configure(SchemaRegistryClient newClient, SerdeConfig serdeConfig, boolean isKey) {
        SchemaRegistryClient old = client;
        client = newClient;
        AvroSerializer<T> records = new AvroSerializer<>(type, newClient, serdeConfig, isKey);
        serializer = serializerFor(type, records, serdeConfig);
        encodedSerializer = new EncodedBodySerializer<>(type, records, serdeConfig);
        deserializer = new AvroDeserializer<>(type, newClient);
        if (old != null) {
            old.close();
        }
    }

    /**
     * The serializer of {@code type}: Avro's generic writer, except for {@link ProbeResult}, the record every probe
     * publishes, which has a writer of its own that writes the same bytes ({@link ProbeResultSerializer}) unless
     * {@code use.latest.version} is set or the generated class carries a schema that writer was not made for.
     */
    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> Serializer<T> serializerFor(Class<T> type, AvroSerializer<T> generic,
                                                                          SerdeConfig config) {
        if (type == ProbeResult.class && !config.useLatestVersion() && ProbeResultSerializer.matchesSchema()) {
            return (Serializer<T>) new ProbeResultSerializer((AvroSerializer<ProbeResult>) generic);
        }
        return generic;
    }

    @Override
    public Serializer<T> serializer() {
        Serializer<T> current = serializer;
        if (current == null) {
            throw new IllegalStateException("AvroSerde<" + type.getSimpleName() + "> is not configured: call configure(...) or use forValues(...)");
        }
        return current;
    }

    /**
     * A serializer of records encoded already as Avro binary bodies under the generated class's own schema (no
     * header): it writes the same bytes as {@link #serializer()} does for the record, without encoding it again.
     */
    public Serializer<byte[]> encodedSerializer() {
        Serializer<byte[]> current = encodedSerializer;
        if (current == null) {
            throw new IllegalStateException("AvroSerde<" + type.getSimpleName() + "> is not configured: call configure(...) or use forValues(...)");
        }
        return current;
    }

    @Override
    public Deserializer<T> deserializer() {
        AvroDeserializer<T> current = deserializer;
        if (current == null) {
            throw new IllegalStateException("AvroSerde<" + type.getSimpleName() + "> is not configured: call configure(...) or use forValues(...)");
        }
        return current;
    }

    @Override
    public void close() {
        SchemaRegistryClient current = client;
        if (current != null) {
            current.close();
        }
    }
}
