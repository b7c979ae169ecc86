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
 * Reads only {@code startedAtMs}, {@code latencyMicros} and {@code outcome} of a {@link ProbeResult} in Confluent's
 * wire format, for consumers that chart latencies and need nothing else: no other field is decoded, no string is
 * built. Checks and errors are those of {@link AvroSerde}'s deserializer ({@link FieldsDeserializer}).
 * <p>
 * When the writer has the three fields as an int or long and an enum (every ProbeResult schema so far), they are
 * read where the bounded pass found them, with a symbol table for the outcome (an unknown symbol reads as the
 * reader's default, {@code INCONCLUSIVE}); any other compatible writer through Avro's resolving decoder.
 * Thread-safe.
 */
public final class ProbeSampleDeserializer extends FieldsDeserializer<ProbeSample, ProbeSampleDeserializer.Direct> {

    /** The reader schema: {@link ProbeResult}'s three fields, with their types, names and defaults. */
    static final Schema PROJECTION = projection(ProbeResult.getClassSchema(),
            List.of("startedAtMs", "outcome", "latencyMicros"));
    private static final ProbeOutcome[] OUTCOMES = ProbeOutcome.values();
    private static final int STARTED_AT = PROJECTION.getField("startedAtMs").pos();
    private static final int OUTCOME = PROJECTION.getField("outcome").pos();
    private static final int LATENCY = PROJECTION.getField("latencyMicros").pos();

    /** Where the three fields are among one writer's, and per writer symbol the reader's outcome. */
    record Direct(int startedAt, int latency, int outcome, ProbeOutcome[] outcomes) {
    }

    ProbeSampleDeserializer(SchemaRegistryClient client, boolean ownsClient) {
        super(ProbeResult.getClassSchema(), PROJECTION, client, ownsClient);
    }

    /**
     * A deserializer with its own registry client, configured with Confluent's keys like {@link AvroSerde}
     * ({@code schema.registry.url} and the credentials).
     */
    public static ProbeSampleDeserializer fromConfig(Map<String, ?> serdeConfig) {
        return new ProbeSampleDeserializer(RegistryClients.fromConfig(requireNonNull(serdeConfig, "serdeConfig")), true);
    }

    @Override
    Direct direct(Schema writer) {
        Schema.Field startedAt = writer.getField("startedAtMs");
        Schema.Field latency = writer.getField("latencyMicros");
        Schema.Field outcome = writer.getField("outcome");
        if (isVarint(startedAt) && isVarint(latency) && is(outcome, Schema.Type.ENUM)) {
            return new Direct(startedAt.pos(), latency.pos(), outcome.pos(), outcomes(outcome.schema()));
        }
        return null;
    }

    @Override
    ProbeSample readDirect(Direct plan, Schema writer, byte[] bytes, int[] starts) {
        int symbol = (int) varint(bytes, starts[plan.outcome()]);
        ProbeOutcome outcome = plan.outcomes()[symbol];
        if (outcome == null) {
            throw new RecordDecodeException(Reason.UNDECODABLE, "Cannot decode a ProbeResult: outcome symbol "
                    + writer.getFields().get(plan.outcome()).schema().getEnumSymbols().get(symbol)
                    + " is not a ProbeOutcome and the reader has no default");
        }
        return new ProbeSample(varint(bytes, starts[plan.startedAt()]), varint(bytes, starts[plan.latency()]), outcome);
    }

    @Override
    ProbeSample readResolved(ResolvingDecoder in) throws IOException {
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
        return new ProbeSample(startedAtMs, latencyMicros, outcome);
    }

    /** Per writer symbol index, the reader's outcome: the same symbol, else the reader's default, else null. */
    static ProbeOutcome[] outcomes(Schema writerEnum) {
        Schema reader = ProbeOutcome.getClassSchema();
        List<String> symbols = writerEnum.getEnumSymbols();
        ProbeOutcome[] table = new ProbeOutcome[symbols.size()];
        for (int i = 0; i < table.length; i++) {
            String symbol = reader.hasEnumSymbol(symbols.get(i)) ? symbols.get(i) : reader.getEnumDefault();
            table[i] = symbol == null ? null : ProbeOutcome.valueOf(symbol);
        }
        return table;
    }
}
