package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Reads a few fields of a contract record in Confluent's wire format and decodes nothing else, for consumers that
 * need only those ({@link ProbeSampleDeserializer}, {@link GroupRoutingDeserializer}). It keeps every guarantee of
 * {@link AvroSerde}'s deserializer: the header is checked, the writer schema is fetched by id (once per id, through
 * the same registry clients and cache) and must be compatible with the <em>whole</em> record's schema (so this
 * refuses exactly what the full decoder refuses), and the body goes through the same bounded first pass
 * ({@code BoundedScan}), which must use it exactly. Errors are the same too: undecodable bytes raise a
 * {@link RecordDecodeException} with its reason, a registry that cannot be reached a plain
 * {@link SerializationException}.
 * <p>
 * Per writer id the reading is worked out once. When the writer has the fields in the shape the subclass reads
 * directly ({@link #direct(Schema)}: every writer of the contract so far), the bounded pass notes where the
 * writer's fields start and the subclass reads them there: one pass over the bytes. Any other compatible writer
 * (a field written as a union, say) is read by Avro's resolving decoder against the projection, which skips the
 * rest. Thread-safe: the aggregator's stream threads share one instance (the direct path keeps nothing between
 * records; the resolving path, which no writer of ours takes, reads one record of a writer id at a time).
 *
 * @param <T> what is read
 * @param <D> what the direct path needs to know of one writer schema (where its fields are)
 */
abstract class FieldsDeserializer<T, D> implements Deserializer<T> {

    /**
     * How to read the records of one writer id: the direct path's {@code D}, or a decoder resolved against the
     * projection (used under the plan's lock), or why they cannot be read.
     */
    private static final class Plan<D> {
        final Schema writerSchema;
        final String refusal;
        final D direct;
        final int fields;
        final ResolvingDecoder resolver;

        Plan(Schema writerSchema, String refusal, D direct, ResolvingDecoder resolver) {
            this.writerSchema = writerSchema;
            this.refusal = refusal;
            this.direct = direct;
            this.fields = direct == null ? 0 : writerSchema.getFields().size();
            this.resolver = resolver;
        }
    }

    private final Schema full;
    private final Schema projection;
    private final String typeName;
    private final SchemaRegistryClient client;
    private final boolean ownsClient;
    private final Map<Integer, Plan<D>> plans = new ConcurrentHashMap<>();

    /**
     * @param full       the whole record's schema, which every writer must be compatible with
     * @param projection the reader schema of the resolving path: the fields read, from {@link #projection}
     */
    FieldsDeserializer(Schema full, Schema projection, SchemaRegistryClient client, boolean ownsClient) {
        this.full = requireNonNull(full, "full");
        this.projection = requireNonNull(projection, "projection");
        this.typeName = full.getName();
        this.client = requireNonNull(client, "client");
        this.ownsClient = ownsClient;
    }

    /**
     * What reading {@code writer}'s records directly needs (a compatible writer), or {@code null} when its fields do
     * not have the shape the direct path reads: then the resolving decoder reads them.
     */
    abstract D direct(Schema writer);

    /**
     * Reads a record directly: {@code starts[i]} is where the writer's field {@code i} starts in {@code bytes}, proved
     * complete by the bounded pass.
     */
    abstract T readDirect(D direct, Schema writer, byte[] bytes, int[] starts);

    /** Reads a record through {@code in}, resolved against the projection (fields in {@code in.readFieldOrder()}). */
    abstract T readResolved(ResolvingDecoder in) throws IOException;

    @Override
    public final T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        int id = WireFormat.schemaId(bytes);
        Plan<D> plan = plans.get(id);
        if (plan == null) {
            plan = plan(id);
            plans.put(id, plan);
        }
        if (plan.refusal != null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, plan.refusal);
        }
        try {
            return plan.direct != null ? direct(plan, bytes) : resolved(plan, bytes);
        } catch (RecordDecodeException e) {
            throw e;
        } catch (BoundedScan.Refused e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a " + typeName
                    + " written with schema id " + id + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a " + typeName
                    + " written with schema id " + id + ": " + e, e);
        }
    }

    /** One pass: the bounded scan notes where the writer's fields start, the subclass reads its fields there. */
    private T direct(Plan<D> plan, byte[] bytes) {
        int[] starts = new int[plan.fields];
        // as in AvroDeserializer: prove every length, count and depth within bounds, the whole body used
        BoundedScan.check(plan.writerSchema, bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, starts);
        return readDirect(plan.direct, plan.writerSchema, bytes, starts);
    }

    /** Two passes: the bounded scan, then Avro's resolving decoder, which skips what the projection lacks. */
    private T resolved(Plan<D> plan, byte[] bytes) throws IOException {
        BoundedScan.check(plan.writerSchema, bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE);
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, WireFormat.HEADER_SIZE,
                bytes.length - WireFormat.HEADER_SIZE, null);
        synchronized (plan) {
            ResolvingDecoder in = plan.resolver;
            in.configure(decoder);
            T read = readResolved(in);
            in.drain();
            return read;
        }
    }

    private Plan<D> plan(int id) {
        WriterCheck check = WriterCheck.of(client, id, full, typeName);
        if (check.refusal() != null) {
            return new Plan<>(check.writer(), check.refusal(), null, null);
        }
        Schema writerSchema = check.writer();
        try {
            D direct = writerSchema.getType() == Schema.Type.RECORD ? direct(writerSchema) : null;
            if (direct != null) {
                return new Plan<>(writerSchema, null, direct, null);
            }
            return new Plan<>(writerSchema, null, null,
                    DecoderFactory.get().resolvingDecoder(writerSchema, projection, null));
        } catch (IOException | RuntimeException | StackOverflowError e) {
            return new Plan<>(null, WriterCheck.unusable(id, e).refusal(), null, null);
        }
    }

    /** {@code full} with only {@code names}, in that order (each a copy of the field: type, doc and default). */
    static Schema projection(Schema full, List<String> names) {
        List<Schema.Field> fields = names.stream().map(n -> {
            Schema.Field f = requireNonNull(full.getField(n), n);
            return new Schema.Field(f, f.schema());
        }).toList();
        return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
    }

    /** Whether {@code field} is written as an int or a long (both zig-zag varints in the bytes). */
    static boolean isVarint(Schema.Field field) {
        return field != null && (field.schema().getType() == Schema.Type.LONG || field.schema().getType() == Schema.Type.INT);
    }

    /** Whether {@code field} is written as {@code type}. */
    static boolean is(Schema.Field field, Schema.Type type) {
        return field != null && field.schema().getType() == type;
    }

    /** The zig-zag varint at {@code pos}, which the bounded scan has proved complete and short enough. */
    static long varint(byte[] bytes, int pos) {
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

    /** The string at {@code pos} (a varint byte count, then UTF-8), which the bounded scan has proved complete. */
    static String string(byte[] bytes, int pos) {
        int length = (int) varint(bytes, pos);
        int start = pos;
        while ((bytes[start] & 0x80) != 0) {
            start++;
        }
        return new String(bytes, start + 1, length, StandardCharsets.UTF_8);
    }

    /** The boolean at {@code pos}, read as Avro reads one (1 is true, anything else false). */
    static boolean bool(byte[] bytes, int pos) {
        return bytes[pos] == 1;
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }
}
