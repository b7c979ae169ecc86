package io.healthmesh.contract.serde;

import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How {@code TargetDefinition} may evolve: a v2 with an added, defaulted field is accepted, a v2
 * without a required field is refused where old readers must keep reading, and old and new
 * producers and consumers read each other's records through the serde.
 */
class SchemaEvolutionTest {

    private static final Schema V1 = TargetDefinition.getClassSchema();
    private static final String TOPIC = "healthmesh.targets";
    private static final String SUBJECT = TOPIC + "-value";

    private final String scope = "evolution-" + UUID.randomUUID();
    private final SchemaRegistry registry = MemoryRegistries.scope(scope);
    private final Map<String, Object> config = Map.of("schema.registry.url", "mem://" + scope);

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    /** v1 plus {@code ownerTeam: string = "unowned"}. */
    static Schema withAddedDefaultedField() {
        List<Schema.Field> fields = copyFields(V1);
        fields.add(new Schema.Field("ownerTeam", Schema.create(Schema.Type.STRING), "Team that owns the target.", "unowned"));
        return record(fields);
    }

    /** v1 without its required {@code address}. */
    static Schema withoutRequiredAddress() {
        List<Schema.Field> fields = copyFields(V1);
        fields.removeIf(f -> f.name().equals("address"));
        return record(fields);
    }

    /** v1 plus {@code ownerTeam: string} with no default. */
    static Schema withAddedRequiredField() {
        List<Schema.Field> fields = copyFields(V1);
        fields.add(new Schema.Field("ownerTeam", Schema.create(Schema.Type.STRING), "Team that owns the target."));
        return record(fields);
    }

    @Test
    void anAddedDefaultedFieldIsAcceptedUnderBackwardAndFull() {
        assertThat(registry.globalLevel()).isEqualTo(CompatibilityLevel.BACKWARD);
        int v1 = registry.register(SUBJECT, V1.toString());
        int v2 = registry.register(SUBJECT, withAddedDefaultedField().toString());
        assertThat(v2).isNotEqualTo(v1);
        assertThat(registry.versions(SUBJECT, false)).containsExactly(1, 2);

        registry.setSubjectLevel("full-value", CompatibilityLevel.FULL_TRANSITIVE);
        registry.register("full-value", V1.toString());
        assertThat(registry.register("full-value", withAddedDefaultedField().toString())).isEqualTo(v2);
    }

    @Test
    void anAddedRequiredFieldIsRefusedUnderBackward() {
        registry.register(SUBJECT, V1.toString());
        assertThatThrownBy(() -> registry.register(SUBJECT, withAddedRequiredField().toString()))
                .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(409))
                .hasMessageContaining("ownerTeam");
    }

    @Test
    void aRemovedRequiredFieldIsRefusedWhereOldReadersMustReadNewRecords() {
        // Avro (and Confluent) accept a removal under BACKWARD: the new reader ignores the old field.
        // Old readers cannot fill "address", so FORWARD and FULL refuse it.
        for (CompatibilityLevel level : List.of(CompatibilityLevel.FORWARD, CompatibilityLevel.FULL, CompatibilityLevel.FULL_TRANSITIVE)) {
            String subject = level + "-value";
            registry.setSubjectLevel(subject, level);
            registry.register(subject, V1.toString());
            assertThatThrownBy(() -> registry.register(subject, withoutRequiredAddress().toString()))
                    .as(level.name())
                    .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(409))
                    .hasMessageContaining("address");
            assertThat(registry.versions(subject, false)).containsExactly(1);
        }
    }

    @Test
    void aV1ReaderDecodesRecordsOfAV2Producer() throws IOException {
        Schema v2 = withAddedDefaultedField();
        registry.register(SUBJECT, V1.toString());
        int v2Id = registry.register(SUBJECT, v2.toString());
        TargetDefinition original = Records.targetDefinition();
        GenericRecord newer = toV2(original, v2, "edge-team");

        byte[] bytes = wire(v2Id, v2, newer);
        TargetDefinition decoded = AvroSerde.forValues(TargetDefinition.class, config).deserializer().deserialize(TOPIC, bytes);
        assertThat(decoded).isEqualTo(original);
    }

    @Test
    void aV2ReaderDecodesRecordsOfAV1ProducerWithTheDefault() throws IOException {
        Schema v2 = withAddedDefaultedField();
        byte[] bytes = AvroSerde.forValues(TargetDefinition.class, config).serializer().serialize(TOPIC, Records.targetDefinition());
        int writerId = ByteBuffer.wrap(bytes, 1, 4).getInt();
        Schema writer = SchemaRegistry.parse(registry.schemaById(writerId));
        GenericRecord read = new GenericDatumReader<GenericRecord>(writer, v2)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
        assertThat(read.get("ownerTeam").toString()).isEqualTo("unowned");
        assertThat(read.get("address").toString()).isEqualTo("127.0.0.1");
    }

    @Test
    void withUseLatestVersionAV1ProducerWritesUnderTheLatestV2Schema() {
        Schema v2 = withAddedDefaultedField();
        registry.register(SUBJECT, V1.toString());
        int v2Id = registry.register(SUBJECT, v2.toString());
        Map<String, Object> latest = Map.of("schema.registry.url", "mem://" + scope,
                "auto.register.schemas", "false", "use.latest.version", "true");
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, latest);
        byte[] bytes = serde.serializer().serialize(TOPIC, Records.targetDefinition());
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(v2Id);
        assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(Records.targetDefinition());
    }

    @Test
    void useLatestVersionRefusesALatestSchemaThatCannotHoldTheRecord() {
        registry.setSubjectLevel(SUBJECT, CompatibilityLevel.NONE);
        registry.register(SUBJECT, withAddedRequiredField().toString());
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, Map.of("schema.registry.url", "mem://" + scope,
                "auto.register.schemas", "false", "use.latest.version", "true"));
        assertThatThrownBy(() -> serde.serializer().serialize(TOPIC, Records.targetDefinition()))
                .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
                .hasMessageContaining("use.latest.version");
    }

    private static GenericRecord toV2(TargetDefinition v1Record, Schema v2, String ownerTeam) {
        GenericRecord asGeneric = (GenericRecord) SpecificData.get().deepCopy(V1, v1Record);
        GenericData.Record newer = new GenericData.Record(v2);
        for (Schema.Field field : V1.getFields()) {
            newer.put(field.name(), asGeneric.get(field.name()));
        }
        newer.put("ownerTeam", ownerTeam);
        return newer;
    }

    /** What a v2 producer writes: the wire header with v2's id, then the record in v2's layout. */
    private static byte[] wire(int id, Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema, SpecificData.get()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static List<Schema.Field> copyFields(Schema schema) {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : schema.getFields()) {
            fields.add(new Schema.Field(field, field.schema()));
        }
        return fields;
    }

    private static Schema record(List<Schema.Field> fields) {
        return Schema.createRecord(V1.getName(), V1.getDoc(), V1.getNamespace(), false, fields);
    }
}
