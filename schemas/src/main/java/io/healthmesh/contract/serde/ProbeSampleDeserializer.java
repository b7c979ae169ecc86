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
 * wire format, for consumers that chart latencies and need nothing else: no other field is decoded, no string is
 * built. It keeps every guarantee of {@link AvroSerde}'s deserializer: the header is checked, the writer schema is
 * fetched by id (once per id, through the same registry clients and cache) and must be compatible with the whole
 * {@link ProbeResult} schema (so this refuses exactly what the full decoder refuses), and the body goes through the
 * same bounded first pass ({@code BoundedScan}), which must use it exactly. Errors are the same too: undecodable bytes
 * raise a {@link RecordDecodeException} with its reason, a registry that cannot be reached a plain
 * {@link SerializationException}.
 * <p>
 * Per writer id the reading is worked out once. When the writer has the three fields as an int or long and an enum
 * (every ProbeResult schema so far), the bounded pass notes where the writer's fields start and the three are read
 * there: one pass over the bytes, a symbol table for the outcome (an unknown symbol reads as the reader's default,
 * {@code INCONCLUSIVE}). Any other compatible writer is read by Avro's resolving decoder against a three-field reader
 * schema, which skips the rest. The per-id state is reused between records, so this is <b>not thread-safe</b>: one
 * instance per thread.
 */
public final class ProbeSampleDeserializer implements Deserializer<ProbeSample> {

    /** The reader schema: {@link ProbeResult}'s three fields, with their types, names and defaults. */
    static final Schema PROJECTION = projection(ProbeResult.getClassSchema(),
            List.of("startedAtMs", "outcome", "latencyMicros"));
    private static final ProbeOutcome[] OUTCOMES = ProbeOutcome.values();
    private static final int STARTED_AT = PROJECTION.getField("startedAtMs").pos();
    private static final int OUTCOME = PROJECTION.getField("outcome").pos();
    private static final int LATENCY = PROJECTION.getField("latencyMicros").pos();

    /**
     * How to read the records of one writer id, worked out once: where the three fields are among the writer's
     * and, per writer symbol, the reader's outcome (the direct path); or a decoder resolved against
     * {@link #PROJECTION} (any other compatible writer, e.g. a field written as a union); or why they cannot be read.
     */
    private static final class Plan {
        final Schema writerSchema;
        final String refusal;
        final int[] fieldStarts;
        final int startedAt;
        final int latency;
        final int outcome;
        final ProbeOutcome[] outcomes;
        final ResolvingDecoder resolver;

        private Plan(Schema writerSchema, String refusal, int startedAt, int latency, int outcome,
                     ProbeOutcome[] outcomes, ResolvingDecoder resolver) {
            this.writerSchema = writerSchema;
            this.refusal = refusal;
            this.fieldStarts = outcomes == null ? null : new int[writerSchema.getFields().size()];
            this.startedAt = startedAt;
            this.latency = latency;
            this.outcome = outcome;
            this.outcomes = outcomes;
            this.resolver = resolver;
        }

        static Plan refused(Schema writerSchema, String refusal) {
            return new Plan(writerSchema, refusal, -1, -1, -1, null, null);
        }

        boolean direct() {
            return outcomes != null;
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
        int id = WireFormat.schemaId(bytes);
        Plan plan = plans.get(id);
        if (plan == null) {
            plan = plan(id);
            plans.put(id, plan);
        }
        if (plan.refusal != null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, plan.refusal);
        }
        try {
            return plan.direct() ? direct(plan, bytes) : resolved(plan, bytes);
        } catch (RecordDecodeException e) {
            throw e;
        } catch (BoundedScan.Refused e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult written with schema id "
                    + id + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult written with schema id "
                    + id + ": " + e, e);
        }
    }

    /** One pass: the bounded scan notes where the writer's fields start, the three are read there. */
    private static ProbeSample direct(Plan plan, byte[] bytes) {
        int[] starts = plan.fieldStarts;
        // as in AvroDeserializer: prove every length, count and depth within bounds, the whole body used
        BoundedScan.check(plan.writerSchema, bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, starts);
        ProbeOutcome outcome = plan.outcomes[(int) varint(bytes, starts[plan.outcome])];
        if (outcome == null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult: outcome symbol "
                    + plan.writerSchema.getFields().get(plan.outcome).schema().getEnumSymbols()
                    .get((int) varint(bytes, starts[plan.outcome])) + " is not a ProbeOutcome and the reader has no default");
        }
        return new ProbeSample(varint(bytes, starts[plan.startedAt]), varint(bytes, starts[plan.latency]), outcome);
    }

    /** The zig-zag varint at {@code pos}, which the bounded scan has proved complete and short enough. */
    private static long varint(byte[] bytes, int pos) {
        long raw = 0;
        int shift = 0;
        int b;
        do {
            b = bytes[pos++] & 0xff;
            raw |= (long) (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** Two passes: the bounded scan, then Avro's resolving decoder, which skips what the projection lacks. */
    private ProbeSample resolved(Plan plan, byte[] bytes) throws IOException {
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
    }

    private Plan plan(int id) {
        String schemaText = WireFormat.writerSchema(client, id);
        try {
            return resolve(id, schemaText);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // a hostile schema (absurdly nested, say) is refused like any unreadable one
            return Plan.refused(null, "Schema id " + id + " cannot be used: " + e);
        }
    }

    private static Plan resolve(int id, String schemaText) throws IOException {
        Schema writerSchema;
        try {
            writerSchema = SchemaRegistry.parse(schemaText);
        } catch (RegistryException e) {
            return Plan.refused(null, "Schema id " + id + " is not a valid Avro schema: " + e.getMessage());
        }
        SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(ProbeResult.getClassSchema(), writerSchema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return Plan.refused(writerSchema, "Records written with schema id " + id + " cannot be read as "
                    + "ProbeResult: " + compatibility.getResult().getIncompatibilities().stream()
                    .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).toList());
        }
        if (writerSchema.getType() == Schema.Type.RECORD) {
            Schema.Field startedAt = writerSchema.getField("startedAtMs");
            Schema.Field latency = writerSchema.getField("latencyMicros");
            Schema.Field outcome = writerSchema.getField("outcome");
            if (isVarint(startedAt) && isVarint(latency) && outcome != null
                    && outcome.schema().getType() == Schema.Type.ENUM) {
                return new Plan(writerSchema, null, startedAt.pos(), latency.pos(), outcome.pos(),
                        outcomes(outcome.schema()), null);
            }
        }
        return new Plan(writerSchema, null, -1, -1, -1, null,
                DecoderFactory.get().resolvingDecoder(writerSchema, PROJECTION, null));
    }

    /** An int or a long (an int is promoted to long; both are zig-zag varints in the bytes). */
    private static boolean isVarint(Schema.Field field) {
        return field != null && (field.schema().getType() == Schema.Type.LONG || field.schema().getType() == Schema.Type.INT);
    }

    /** Per writer symbol index, the reader's outcome: the same symbol, else the reader's default, else null. */
    private static ProbeOutcome[] outcomes(Schema writerEnum) {
        Schema reader = ProbeOutcome.getClassSchema();
        List<String> symbols = writerEnum.getEnumSymbols();
        ProbeOutcome[] table = new ProbeOutcome[symbols.size()];
        for (int i = 0; i < table.length; i++) {
            String symbol = reader.hasEnumSymbol(symbols.get(i)) ? symbols.get(i) : reader.getEnumDefault();
            table[i] = symbol == null ? null : ProbeOutcome.valueOf(symbol);
        }
        return table;
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
