package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.LocalRegistryClient;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.registry.RegisteredSchema;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.healthmesh.contract.serde.WriterSchemas.encode;
import static io.healthmesh.contract.serde.WriterSchemas.generic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ProbeSampleDeserializerTest {

    private static final String TOPIC = "probe-results";
    private final String scope = "sample-" + UUID.randomUUID();
    private final Map<String, Object> config = Map.of("schema.registry.url", "mem://" + scope);
    private final AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config);
    private final CountingRegistryClient counting =
            new CountingRegistryClient(new LocalRegistryClient(MemoryRegistries.scope(scope)));
    private final ProbeSampleDeserializer samples = new ProbeSampleDeserializer(counting, false);

    @AfterEach
    void close() {
        samples.close();
        serde.close();
        MemoryRegistries.drop(scope);
    }

    @Test
    void readsTheThreeFieldsOfARecordFromTheRealSerializer() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        ProbeSample sample = samples.deserialize(TOPIC, bytes);
        assertThat(sample).isEqualTo(new ProbeSample(1_700_000_000_000L, 1234, ProbeOutcome.UNEXPECTED_STATUS));
        assertThat(sample.success()).isFalse();
        ProbeResult full = serde.deserializer().deserialize(TOPIC, bytes);
        assertThat(sample).isEqualTo(new ProbeSample(full.getStartedAtMs(), full.getLatencyMicros(), full.getOutcome()));
    }

    @Test
    void everyOutcomeAndOptionalPartsAbsentOrPresentDecode() {
        for (ProbeOutcome outcome : ProbeOutcome.values()) {
            ProbeResult result = ProbeResult.newBuilder(Records.probeResult()).setOutcome(outcome)
                    .setDetail(outcome.ordinal() % 2 == 0 ? null : "x".repeat(200)).setConnectMicros(null)
                    .setLatencyMicros(outcome.ordinal() * 1_000_003L).build();
            ProbeSample sample = samples.deserialize(TOPIC, serde.serializer().serialize(TOPIC, result));
            assertThat(sample.outcome()).isEqualTo(outcome);
            assertThat(sample.success()).isEqualTo(outcome == ProbeOutcome.SUCCESS);
            assertThat(sample.latencyMicros()).isEqualTo(outcome.ordinal() * 1_000_003L);
        }
    }

    @Test
    void theWriterSchemaIsFetchedOncePerId() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        for (int i = 0; i < 5; i++) {
            samples.deserialize(TOPIC, bytes);
        }
        assertThat(counting.calls).hasValue(1);
    }

    @Test
    void aCompatibleWriterWithReorderedExtraMissingAndNarrowerFieldsDecodesLikeTheFullDecoder() throws IOException {
        // the writer's fields in reverse order, latencyMicros written as an int (promoted), schedulingLagMicros
        // absent (the reader has a default), and one field the reader does not know
        Schema full = ProbeResult.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : full.getFields()) {
            if (f.name().equals("schedulingLagMicros")) {
                continue;
            }
            Schema type = f.name().equals("latencyMicros") ? Schema.create(Schema.Type.INT) : f.schema();
            fields.add(new Schema.Field(f.name(), type, f.doc(), f.defaultVal()));
        }
        fields.add(new Schema.Field("zone", Schema.createArray(Schema.create(Schema.Type.STRING)), null, null));
        Collections.reverse(fields);
        Schema writer = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        int id = MemoryRegistries.scope(scope).register("evolved-value", writer.toString());

        GenericRecord record = new GenericData.Record(writer);
        ProbeResult expected = Records.probeResult();
        for (Schema.Field f : writer.getFields()) {
            switch (f.name()) {
                case "zone" -> record.put("zone", List.of("a", "b", "c"));
                case "latencyMicros" -> record.put("latencyMicros", (int) expected.getLatencyMicros());
                case "protocol" -> record.put("protocol", new GenericData.EnumSymbol(f.schema(), expected.getProtocol().name()));
                case "outcome" -> record.put("outcome", new GenericData.EnumSymbol(f.schema(), expected.getOutcome().name()));
                default -> record.put(f.name(), expected.get(f.name()));
            }
        }
        byte[] bytes = encode(id, writer, record);

        ProbeSample sample = samples.deserialize(TOPIC, bytes);
        assertThat(sample).isEqualTo(new ProbeSample(expected.getStartedAtMs(), expected.getLatencyMicros(), expected.getOutcome()));
        ProbeResult decoded = serde.deserializer().deserialize(TOPIC, bytes);
        assertThat(sample).isEqualTo(new ProbeSample(decoded.getStartedAtMs(), decoded.getLatencyMicros(), decoded.getOutcome()));
    }

    @Test
    void aWriterWithAUnionForAFieldIsReadThroughTheResolvingDecoder() throws IOException {
        // startedAtMs as ["int","long"]: compatible (every branch reads as a long), not the direct path's shape
        Schema full = ProbeResult.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : full.getFields()) {
            Schema type = f.name().equals("startedAtMs")
                    ? Schema.createUnion(Schema.create(Schema.Type.INT), Schema.create(Schema.Type.LONG)) : f.schema();
            fields.add(new Schema.Field(f.name(), type, f.doc(), f.defaultVal()));
        }
        Schema writer = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        int id = MemoryRegistries.scope(scope).register("union-value", writer.toString());
        GenericRecord record = generic(writer, Records.probeResult());
        byte[] bytes = encode(id, writer, record);
        assertThat(samples.deserialize(TOPIC, bytes))
                .isEqualTo(new ProbeSample(1_700_000_000_000L, 1234, ProbeOutcome.UNEXPECTED_STATUS));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);
        assertThatThrownBy(() -> samples.deserialize(TOPIC, truncated))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
        assertThat(samples.deserialize(TOPIC, bytes).startedAtMs()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aWriterThatIsAUnionOfTheRecordDecodesLikeTheFullDecoder() throws IOException {
        // a one-branch union: every branch must read as a ProbeResult for the full decoder to accept it
        Schema writer = Schema.createUnion(ProbeResult.getClassSchema());
        int id = MemoryRegistries.scope(scope).register("wrapped-value", writer.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, 0});
        byte[] body = serde.serializer().serialize(TOPIC, Records.probeResult());
        out.write(body, 5, body.length - 5);
        byte[] bytes = out.toByteArray();
        ProbeResult full = serde.deserializer().deserialize(TOPIC, bytes);
        assertThat(samples.deserialize(TOPIC, bytes))
                .isEqualTo(new ProbeSample(full.getStartedAtMs(), full.getLatencyMicros(), full.getOutcome()));
    }

    @Test
    void anOutcomeSymbolTheReaderDoesNotKnowReadsAsItsDefault() throws IOException {
        Schema full = ProbeResult.getClassSchema();
        List<String> symbols = new ArrayList<>(ProbeOutcome.getClassSchema().getEnumSymbols());
        symbols.add(0, "CERTIFICATE_EXPIRED");
        Schema outcome = Schema.createEnum("ProbeOutcome", null, "io.healthmesh.schema", symbols, "INCONCLUSIVE");
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : full.getFields()) {
            fields.add(new Schema.Field(f.name(), f.name().equals("outcome") ? outcome : f.schema(), f.doc(), f.defaultVal()));
        }
        Schema writer = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        int id = MemoryRegistries.scope(scope).register("newer-value", writer.toString());
        GenericRecord record = generic(writer, Records.probeResult());
        record.put("outcome", new GenericData.EnumSymbol(outcome, "CERTIFICATE_EXPIRED"));
        byte[] expired = encode(id, writer, record);
        assertThat(samples.deserialize(TOPIC, expired).outcome()).isEqualTo(ProbeOutcome.INCONCLUSIVE);
        assertThat(serde.deserializer().deserialize(TOPIC, expired).getOutcome()).isEqualTo(ProbeOutcome.INCONCLUSIVE);
        record.put("outcome", new GenericData.EnumSymbol(outcome, "SUCCESS"));
        assertThat(samples.deserialize(TOPIC, encode(id, writer, record)).success()).isTrue();
    }

    @Test
    void anIncompatibleWriterIsRefusedLikeTheFullDecoderRefusesIt() throws IOException {
        // proberId as a boolean: the three fields this reads are fine, but the record is not a ProbeResult
        Schema full = ProbeResult.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : full.getFields()) {
            Schema type = f.name().equals("proberId") ? Schema.create(Schema.Type.BOOLEAN) : f.schema();
            fields.add(new Schema.Field(f.name(), type, f.doc(), f.defaultVal()));
        }
        Schema writer = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        int id = MemoryRegistries.scope(scope).register("incompatible-value", writer.toString());
        byte[] bytes = {0, 0, 0, 0, (byte) id, 1};
        assertThatThrownBy(() -> samples.deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("cannot be read as ProbeResult");
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
    }

    @Test
    void truncatedBytesAreUndecodableAndTheNextRecordStillDecodes() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        for (int length = 6; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> samples.deserialize(TOPIC, truncated))
                    .as("%d of %d bytes", length, bytes.length)
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
            // the reused decoder is not left half-way through the failed record
            assertThat(samples.deserialize(TOPIC, bytes).latencyMicros()).isEqualTo(1234);
        }
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> samples.deserialize(TOPIC, trailing))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("trailing");
    }

    @Test
    void bytesWithoutTheWireHeaderAreNotAvroWireFormat() {
        byte[] good = serde.serializer().serialize(TOPIC, Records.probeResult());
        byte[] wrongMagic = good.clone();
        wrongMagic[0] = 1;
        for (byte[] bad : new byte[][] {{}, {0, 0, 0, 1}, wrongMagic, "{\"json\":true}".getBytes()}) {
            assertThatThrownBy(() -> samples.deserialize(TOPIC, bad))
                    .as(Arrays.toString(bad))
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_AVRO_WIRE_FORMAT));
        }
        assertThat(samples.deserialize(TOPIC, null)).isNull();
    }

    @Test
    void anUnknownSchemaIdIsUnknownSchema() {
        assertThatThrownBy(() -> samples.deserialize(TOPIC, new byte[] {0, 0, 0, 0x7f, 0x7f, 2, 4}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA))
                .hasMessageContaining("32639");
    }

    @Test
    void aHugeArrayCountInAnExtraFieldIsRefusedBeforeAvroSkipsIt() throws IOException {
        String reader = ProbeResult.getClassSchema().toString();
        String writer = reader.substring(0, reader.lastIndexOf(']'))
                + ",{\"name\":\"junk\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}]}";
        int id = MemoryRegistries.scope(scope).register("hostile-value", writer);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        byte[] body = serde.serializer().serialize(TOPIC, Records.probeResult());
        out.write(body, 5, body.length - 5);
        out.write(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, 0x40, 0}); // zig-zag 2^62 items of null, then the end of the array
        byte[] hostile = out.toByteArray();
        assertThatThrownBy(() -> samples.deserialize(TOPIC, hostile))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("items");
    }

    @Test
    void anUnreachableRegistryIsASerializationErrorNotCachedAsARefusal() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        AtomicBoolean down = new AtomicBoolean(true);
        SchemaRegistryClient flaky = new SchemaRegistryClient() {
            @Override
            public int register(String subject, String schema) {
                throw new UnsupportedOperationException();
            }

            @Override
            public RegisteredSchema lookup(String subject, String schema) {
                throw new UnsupportedOperationException();
            }

            @Override
            public RegisteredSchema latest(String subject) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String schemaById(int id) {
                if (down.get()) {
                    throw new RegistryException(RegistryException.UNREACHABLE, "registry unreachable");
                }
                return MemoryRegistries.scope(scope).schemaById(id);
            }
        };
        ProbeSampleDeserializer deserializer = new ProbeSampleDeserializer(flaky, true);
        assertThatThrownBy(() -> deserializer.deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .isNotInstanceOf(RecordDecodeException.class)
                .hasMessageContaining("unreachable");
        down.set(false);
        assertThat(deserializer.deserialize(TOPIC, bytes).startedAtMs()).isEqualTo(1_700_000_000_000L);
        deserializer.close();
    }

    @Test
    void fromConfigReadsTheRegistryKeys() {
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.probeResult());
        try (ProbeSampleDeserializer configured = ProbeSampleDeserializer.fromConfig(config)) {
            assertThat(configured.deserialize(TOPIC, bytes).outcome()).isEqualTo(ProbeOutcome.UNEXPECTED_STATUS);
        }
    }
}
