package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads only {@code startedAtMs}, {@code latencyMicros} and {@code outcome} of a {@link ProbeResult} in Confluent's
 * wire format, for consumers that chart latencies and need nothing else: the other fields are skipped in the bytes,
 * no string is built. It keeps every guarantee of {@link AvroSerde}'s deserializer: the header is checked, the writer
 * schema is fetched by id (once per id, through the same registry clients and cache) and must be compatible with the
 * whole {@link ProbeResult} schema (so this refuses exactly what the full decoder refuses), and the body goes through
 * the same bounded first pass ({@code BoundedScan}) before it is read. Errors are the same too: undecodable bytes raise a
 * {@link RecordDecodeException} with its reason, a registry that cannot be reached a plain
 * {@link SerializationException}. Per writer id the resolution against a three-field reader schema is done once and
 * its decoder reused, so this is <b>not thread-safe</b>: one instance per thread.
 */
public final class ProbeSampleDeserializer implements Deserializer<ProbeSample> {

    /** The reader schema: {@link ProbeResult}'s three fields, with their types, names and defaults. */
    static final Schema PROJECTION = projection(ProbeResult.getClassSchema(),
            List.of("startedAtMs", "outcome", "latencyMicros"));
    private static final ProbeOutcome[] OUTCOMES = ProbeOutcome.values();
    private static final int STARTED_AT = PROJECTION.getField("startedAtMs").pos();
    private static final int OUTCOME = PROJECTION.getField("outcome").pos();
    private static final int LATENCY = PROJECTION.getField("latencyMicros").pos();

    /** How to read the records of one writer id: a writer schema and decoder resolved once, or why they cannot be read. */
    private static final class Plan {
        final Schema writerSchema;
        final ResolvingDecoder resolver;
        final String refusal;

        Plan(Schema writerSchema, ResolvingDecoder resolver, String refusal) {
            this.writerSchema = writerSchema;
            this.resolver = resolver;
            this.refusal = refusal;
        }
    }

    private final SchemaRegistryClient client;
    private final boolean ownsClient;
    private final Map<Integer, Plan> plans = new HashMap<>();
    private BinaryDecoder decoder;

    ProbeSampleDeserializer(SchemaRegistryClient client, boolean ownsClient) {
        this.client = requireNonNull(client, "client");
        this.ownsClient = ownsClient;
    }

    /**
     * A deserializer with its own registry client, configured with Confluent's keys like {@link AvroSerde}
     * ({@code schema.registry.url} and the credentials).
     */
    public static ProbeSampleDeserializer fromConfig(Map<String, ?> serdeConfig) {
        return new ProbeSampleDeserializer(RegistryClients.fromConfig(requireNonNull(serdeConfig, "serdeConfig")), true);
    }

    @Override
    public ProbeSample deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length < WireFormat.HEADER_SIZE || bytes[0] != WireFormat.MAGIC_BYTE) {
            throw new RecordDecodeException(Reason.NOT_AVRO_WIRE_FORMAT, "Not Confluent's Avro wire format: "
                    + (bytes.length < WireFormat.HEADER_SIZE ? bytes.length + " bytes (expected: at least 5)"
                    : "magic byte " + bytes[0] + " (expected: 0)"));
        }
        int id = ((bytes[1] & 0xff) << 24) | ((bytes[2] & 0xff) << 16) | ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
        Plan plan = plans.get(id);
        if (plan == null) {
            plan = plan(id);
            plans.put(id, plan);
        }
        if (plan.refusal != null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, plan.refusal);
        }
        try {
            // as in AvroDeserializer: prove every length, count and depth within bounds before Avro reads (or skips)
            BoundedScan.check(plan.writerSchema, bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE);
            decoder = DecoderFactory.get().binaryDecoder(bytes, WireFormat.HEADER_SIZE,
                    bytes.length - WireFormat.HEADER_SIZE, decoder);
            ResolvingDecoder in = plan.resolver;
            in.configure(decoder);
            long startedAtMs = 0;
            long latencyMicros = 0;
            ProbeOutcome outcome = null;
            for (Schema.Field field : in.readFieldOrder()) {
                int pos = field.pos();
                if (pos == STARTED_AT) {
                    startedAtMs = in.readLong();
                } else if (pos == LATENCY) {
                    latencyMicros = in.readLong();
                } else if (pos == OUTCOME) {
                    outcome = OUTCOMES[in.readEnum()];
                }
            }
            in.drain();
            return new ProbeSample(startedAtMs, latencyMicros, outcome);
        } catch (BoundedScan.Refused e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult written with schema id "
                    + id + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult written with schema id "
                    + id + ": " + e, e);
        }
    }

    private Plan plan(int id) {
        String schemaText;
        try {
            schemaText = client.schemaById(id);
        } catch (RegistryException e) {
            if (e.errorCode() == RegistryException.SCHEMA_NOT_FOUND) {
                throw new RecordDecodeException(Reason.UNKNOWN_SCHEMA, "Unknown schema id " + id + ": " + e.getMessage(), e);
            }
            throw new SerializationException("Cannot fetch schema id " + id + ": " + e.getMessage() + " (error code "
                    + e.errorCode() + ")", e);
        }
        try {
            return resolve(id, schemaText);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // a hostile schema (absurdly nested, say) is refused like any unreadable one
            return new Plan(null, null, "Schema id " + id + " cannot be used: " + e);
        }
    }

    private static Plan resolve(int id, String schemaText) throws IOException {
        Schema writerSchema;
        try {
            writerSchema = SchemaRegistry.parse(schemaText);
        } catch (RegistryException e) {
            return new Plan(null, null, "Schema id " + id + " is not a valid Avro schema: " + e.getMessage());
        }
        SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(ProbeResult.getClassSchema(), writerSchema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return new Plan(writerSchema, null, "Records written with schema id " + id + " cannot be read as "
                    + "ProbeResult: " + compatibility.getResult().getIncompatibilities().stream()
                    .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).toList());
        }
        return new Plan(writerSchema, DecoderFactory.get().resolvingDecoder(writerSchema, PROJECTION, null), null);
    }

    /** {@code full} with only {@code names}, in that order (each a copy of the field: type, doc and default). */
    static Schema projection(Schema full, List<String> names) {
        List<Schema.Field> fields = names.stream().map(n -> {
            Schema.Field f = requireNonNull(full.getField(n), n);
            return new Schema.Field(f, f.schema());
        }).toList();
        return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }
}
