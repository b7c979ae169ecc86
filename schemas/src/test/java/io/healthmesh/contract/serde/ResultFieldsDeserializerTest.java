package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.LocalRegistryClient;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static io.healthmesh.contract.serde.WriterSchemas.encode;
import static io.healthmesh.contract.serde.WriterSchemas.generic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ResultFieldsDeserializerTest {

    private static final String TOPIC = "probe-results";
    private final String scope = "fields-" + UUID.randomUUID();
    private final Map<String, Object> config = Map.of("schema.registry.url", "mem://" + scope);
    private final AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config);
    private final CountingRegistryClient counting =
            new CountingRegistryClient(new LocalRegistryClient(MemoryRegistries.scope(scope)));
    private final ResultFieldsDeserializer fields = new ResultFieldsDeserializer(counting, false);

    @AfterEach
    void close() {
        fields.close();
        serde.close();
        MemoryRegistries.drop(scope);
    }

    /** What the full decoder reads, as {@link ResultFields}. */
    private ResultFields fully(byte[] bytes) {
        ProbeResult r = serde.deserializer().deserialize(TOPIC, bytes);
        return new ResultFields(r.getTargetId(), r.getGeneration(), r.getRegion(), r.getProberId(), r.getOutcome(),
                r.getStartedAtMs(), r.getLatencyMicros(), r.getDetail());
    }

    @Test
    void readsTheEightFieldsOfEveryOutcomeWithAndWithoutDetailLikeTheFullDecoder() {
        for (ProbeOutcome outcome : ProbeOutcome.values()) {
            for (String detail : new String[] {null, "", "HTTP 503 ü " + "x".repeat(180)}) {
                ProbeResult result = ProbeResult.newBuilder(Records.probeResult()).setOutcome(outcome)
                        .setDetail(detail).setTargetId("web-é-" + outcome.ordinal()).setGeneration((1L << 53) - 1)
                        .setLatencyMicros(outcome.ordinal() * 1_000_003L).build();
                byte[] bytes = serde.serializer().serialize(TOPIC, result);
                ResultFields read = fields.deserialize(TOPIC, bytes);
                assertThat(read).isEqualTo(fully(bytes)).isEqualTo(new ResultFields("web-é-" + outcome.ordinal(),
                        (1L << 53) - 1, "eu", "prober-1", outcome, 1_700_000_000_000L, outcome.ordinal() * 1_000_003L,
                        detail));
            }
        }
        assertThat(fields.deserialize(TOPIC, null)).isNull();
        assertThat(counting.calls).hasValue(1);
    }

    @Test
    void aCompatibleWriterWithReorderedExtraNarrowerFieldsAndAPlainStringDetailDecodesLikeTheFullDecoder()
            throws IOException {
        // reversed fields, latencyMicros as an int, detail as a plain string, one field the reader does not know
        Schema writer = writer(list -> {
            List<Schema.Field> changed = new ArrayList<>();
            for (Schema.Field f : list) {
                Schema type = switch (f.name()) {
                    case "latencyMicros" -> Schema.create(Schema.Type.INT);
                    case "detail" -> Schema.create(Schema.Type.STRING);
                    default -> f.schema();
                };
                changed.add(new Schema.Field(f.name(), type, f.doc(), f.name().equals("detail") ? null : f.defaultVal()));
            }
            changed.add(new Schema.Field("zone", Schema.createArray(Schema.create(Schema.Type.STRING)), null, null));
            Collections.reverse(changed);
            return changed;
        });
        GenericRecord record = generic(writer, Records.probeResult());
        record.put("latencyMicros", 1234);
        record.put("zone", List.of("a", "b"));
        byte[] bytes = encode(register("evolved-value", writer), writer, record);
        assertThat(fields.deserialize(TOPIC, bytes)).isEqualTo(fully(bytes))
                .extracting(ResultFields::latencyMicros, ResultFields::detail).containsExactly(1234L, "HTTP 503");
    }

    @Test
    void aWriterWithoutTheRegionOrWithAUnionDetailOfAnotherOrderIsReadThroughTheResolvingDecoderOrDirectly()
            throws IOException {
        // no region: the reader's default ("default") through the resolving decoder
        Schema noRegion = writer(list -> list.stream().filter(f -> !f.name().equals("region")).toList());
        byte[] bytes = encode(register("no-region-value", noRegion), noRegion, generic(noRegion, Records.probeResult()));
        assertThat(fields.deserialize(TOPIC, bytes)).isEqualTo(fully(bytes))
                .extracting(ResultFields::region).isEqualTo("default");
        // detail as ["string", "null"]: the direct path reads the branch index
        Schema swapped = writer(list -> list.stream().map(f -> f.name().equals("detail") ? new Schema.Field("detail",
                Schema.createUnion(Schema.create(Schema.Type.STRING), Schema.create(Schema.Type.NULL)), null, null)
                : f).toList());
        int id = register("swapped-value", swapped);
        for (String detail : new String[] {"refused", null}) {
            GenericRecord record = generic(swapped, Records.probeResult());
            record.put("detail", detail);
            byte[] swappedBytes = encode(id, swapped, record);
            assertThat(fields.deserialize(TOPIC, swappedBytes)).isEqualTo(fully(swappedBytes))
                    .extracting(ResultFields::detail).isEqualTo(detail);
        }
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);
        assertThatThrownBy(() -> fields.deserialize(TOPIC, truncated))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
        assertThat(fields.deserialize(TOPIC, bytes).region()).isEqualTo("default");
    }

    @Test
    void anUnknownOutcomeReadsAsTheDefaultAndAnIncompatibleWriterIsRefusedWithTheFullDecodersMessage()
            throws IOException {
        List<String> symbols = new ArrayList<>(ProbeOutcome.getClassSchema().getEnumSymbols());
        symbols.add(0, "CERTIFICATE_EXPIRED");
        Schema outcome = Schema.createEnum("ProbeOutcome", null, "io.healthmesh.schema", symbols, "INCONCLUSIVE");
        Schema newer = writer(list -> list.stream().map(f -> f.name().equals("outcome")
                ? new Schema.Field(f.name(), outcome, f.doc(), f.defaultVal()) : f).toList());
        GenericRecord record = generic(newer, Records.probeResult());
        record.put("outcome", new GenericData.EnumSymbol(outcome, "CERTIFICATE_EXPIRED"));
        byte[] expired = encode(register("newer-value", newer), newer, record);
        assertThat(fields.deserialize(TOPIC, expired)).isEqualTo(fully(expired))
                .extracting(ResultFields::outcome).isEqualTo(ProbeOutcome.INCONCLUSIVE);

        Schema incompatible = writer(list -> list.stream().map(f -> f.name().equals("httpStatus")
                ? new Schema.Field(f.name(), Schema.create(Schema.Type.STRING), f.doc(), null) : f).toList());
        int id = register("incompatible-value", incompatible);
        byte[] bytes = {0, 0, 0, 0, (byte) id, 2};
        String full = catchMessage(() -> serde.deserializer().deserialize(TOPIC, bytes));
        assertThatThrownBy(() -> fields.deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessage(full).hasMessageContaining("cannot be read as ProbeResult");
    }

    @Test
    void truncatedTrailingAndUnframedBytesAreRefusedAsTheFullDecoderRefusesThem() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        for (int length = 6; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> fields.deserialize(TOPIC, truncated))
                    .as("%d of %d bytes", length, bytes.length)
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                    .hasMessage(catchMessage(() -> serde.deserializer().deserialize(TOPIC, truncated)));
            assertThat(fields.deserialize(TOPIC, bytes).latencyMicros()).isEqualTo(1234);
        }
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> fields.deserialize(TOPIC, trailing)).hasMessageContaining("trailing");
        assertThatThrownBy(() -> fields.deserialize(TOPIC, new byte[] {0, 0, 0, 0x7f, 0x7f, 2, 4}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA));
        assertThatThrownBy(() -> fields.deserialize(TOPIC, new byte[] {1, 0, 0, 0, 1, 2}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_AVRO_WIRE_FORMAT));
    }

    @Test
    void threadsSharingOneInstanceEachReadTheirOwnRecords() throws Exception {
        byte[][] encoded = new byte[64][];
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = serde.serializer().serialize(TOPIC, ProbeResult.newBuilder(Records.probeResult())
                    .setTargetId("t-" + i).setLatencyMicros(i).setDetail(i % 2 == 0 ? null : "d-" + i).build());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(pool.submit(() -> {
                    int checked = 0;
                    for (int round = 0; round < 2_000; round++) {
                        int i = round % encoded.length;
                        ResultFields read = fields.deserialize(TOPIC, encoded[i]);
                        assertThat(read.targetId()).isEqualTo("t-" + i);
                        assertThat(read.latencyMicros()).isEqualTo(i);
                        assertThat(read.detail()).isEqualTo(i % 2 == 0 ? null : "d-" + i);
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> f : done) {
                assertThat(f.get(15, TimeUnit.SECONDS)).isEqualTo(2_000);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String catchMessage(Runnable decode) {
        try {
            decode.run();
        } catch (RecordDecodeException e) {
            return e.getMessage();
        }
        throw new AssertionError("the full decoder accepted it");
    }

    private int register(String subject, Schema writer) {
        return MemoryRegistries.scope(scope).register(subject, writer.toString());
    }

    /** {@link ProbeResult}'s schema with its fields changed by {@code change}. */
    private static Schema writer(UnaryOperator<List<Schema.Field>> change) {
        return WriterSchemas.writer(ProbeResult.getClassSchema(), change);
    }
}
