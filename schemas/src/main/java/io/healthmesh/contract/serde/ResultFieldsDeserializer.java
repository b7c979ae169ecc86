package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.apache.avro.Schema;
import org.apache.avro.io.ResolvingDecoder;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads the {@link ResultFields} of a {@link ProbeResult} in Confluent's wire format: what the aggregator needs of
 * every result, without building the whole Avro record (the full decode was 8 % of its stream thread's samples in a
 * JFR profile; docs/BENCHMARKS.md, "JMH"). Checks and errors are those of {@link AvroSerde}'s deserializer
 * ({@link FieldsDeserializer}), so a record is refused, with the same message, exactly when the full decoder refuses it.
 * <p>
 * When the writer has the eight fields in the shapes of every ProbeResult schema so far (strings, int or long
 * numbers, an enum outcome, a detail that is a string, or a union of null and string), they are read where the bounded
 * pass found them; an outcome symbol the reader does not know reads as its default ({@code INCONCLUSIVE}). Any other
 * compatible writer (a field it lacks, whose default the reader has; a field as another union) is read through Avro's
 * resolving decoder. Thread-safe.
 */
public final class ResultFieldsDeserializer extends FieldsDeserializer<ResultFields, ResultFieldsDeserializer.Direct> {

    private static final List<String> FIELDS = List.of("targetId", "generation", "region", "proberId", "outcome",
            "startedAtMs", "latencyMicros", "detail");
    /** The reader schema: {@link ProbeResult}'s eight fields, with their types, names and defaults. */
    static final Schema PROJECTION = projection(ProbeResult.getClassSchema(), FIELDS);
    private static final ProbeOutcome[] OUTCOMES = ProbeOutcome.values();

    /**
     * Where the eight fields are among one writer's, per writer symbol the reader's outcome, and per branch of the
     * detail's union whether it is the string (null when the detail is a plain string).
     */
    record Direct(int targetId, int generation, int region, int proberId, int outcome, int startedAt, int latency,
                  int detail, ProbeOutcome[] outcomes, boolean[] detailBranchIsString) {
    }

    ResultFieldsDeserializer(SchemaRegistryClient client, boolean ownsClient) {
        super(ProbeResult.getClassSchema(), PROJECTION, client, ownsClient);
    }

    /** A deserializer with its own registry client, configured with Confluent's keys like {@link AvroSerde}. */
    public static ResultFieldsDeserializer fromConfig(Map<String, ?> serdeConfig) {
        return new ResultFieldsDeserializer(RegistryClients.fromConfig(requireNonNull(serdeConfig, "serdeConfig")), true);
    }

    @Override
    Direct direct(Schema writer) {
        Schema.Field targetId = writer.getField("targetId");
        Schema.Field generation = writer.getField("generation");
        Schema.Field region = writer.getField("region");
        Schema.Field proberId = writer.getField("proberId");
        Schema.Field outcome = writer.getField("outcome");
        Schema.Field startedAt = writer.getField("startedAtMs");
        Schema.Field latency = writer.getField("latencyMicros");
        Schema.Field detail = writer.getField("detail");
        if (!(is(targetId, Schema.Type.STRING) && isVarint(generation) && is(region, Schema.Type.STRING)
                && is(proberId, Schema.Type.STRING) && is(outcome, Schema.Type.ENUM) && isVarint(startedAt)
                && isVarint(latency) && detail != null)) {
            return null;
        }
        boolean[] branches = null;
        if (detail.schema().getType() == Schema.Type.UNION) {
            List<Schema> types = detail.schema().getTypes();
            branches = new boolean[types.size()];
            for (int i = 0; i < types.size(); i++) {
                Schema.Type type = types.get(i).getType();
                if (type != Schema.Type.NULL && type != Schema.Type.STRING) {
                    return null; // compatible only if that branch reads as a string: left to the resolving decoder
                }
                branches[i] = type == Schema.Type.STRING;
            }
        } else if (detail.schema().getType() != Schema.Type.STRING) {
            return null;
        }
        return new Direct(targetId.pos(), generation.pos(), region.pos(), proberId.pos(), outcome.pos(),
                startedAt.pos(), latency.pos(), detail.pos(), ProbeSampleDeserializer.outcomes(outcome.schema()),
                branches);
    }

    @Override
    ResultFields readDirect(Direct plan, Schema writer, byte[] bytes, int[] starts) {
        int symbol = (int) varint(bytes, starts[plan.outcome()]);
        ProbeOutcome outcome = plan.outcomes()[symbol];
        if (outcome == null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult: outcome symbol "
                    + writer.getFields().get(plan.outcome()).schema().getEnumSymbols().get(symbol)
                    + " is not a ProbeOutcome and the reader has no default");
        }
        return new ResultFields(string(bytes, starts[plan.targetId()]), varint(bytes, starts[plan.generation()]),
                string(bytes, starts[plan.region()]), string(bytes, starts[plan.proberId()]), outcome,
                varint(bytes, starts[plan.startedAt()]), varint(bytes, starts[plan.latency()]),
                detail(plan, bytes, starts[plan.detail()]));
    }

    /** The detail at {@code pos}: a string, or a union branch index and, for the string branch, the string. */
    private static String detail(Direct plan, byte[] bytes, int pos) {
        if (plan.detailBranchIsString() == null) {
            return string(bytes, pos);
        }
        int branch = (int) varint(bytes, pos); // the bounded pass proved it a branch of the union
        if (!plan.detailBranchIsString()[branch]) {
            return null;
        }
        while ((bytes[pos] & 0x80) != 0) {
            pos++;
        }
        return string(bytes, pos + 1);
    }

    @Override
    ResultFields readResolved(ResolvingDecoder in) throws IOException {
        String targetId = null;
        long generation = 0;
        String region = null;
        String proberId = null;
        ProbeOutcome outcome = null;
        long startedAtMs = 0;
        long latencyMicros = 0;
        String detail = null;
        for (Schema.Field field : in.readFieldOrder()) {
            switch (field.name()) {
                case "targetId" -> targetId = in.readString();
                case "generation" -> generation = in.readLong();
                case "region" -> region = in.readString();
                case "proberId" -> proberId = in.readString();
                case "outcome" -> outcome = OUTCOMES[in.readEnum()];
                case "startedAtMs" -> startedAtMs = in.readLong();
                case "latencyMicros" -> latencyMicros = in.readLong();
                case "detail" -> {
                    // the projection's detail is ["null", "string"]: branch 1 is the string
                    if (in.readIndex() == 1) {
                        detail = in.readString();
                    } else {
                        in.readNull();
                    }
                }
                default -> throw new IllegalStateException("field " + field.name() + " is not in the projection");
            }
        }
        return new ResultFields(targetId, generation, region, proberId, outcome, startedAtMs, latencyMicros, detail);
    }
}
