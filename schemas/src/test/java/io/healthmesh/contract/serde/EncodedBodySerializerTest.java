package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.schema.TargetDefinition;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A body encoded once is sent as the very bytes the record serializer would write for its record. */
class EncodedBodySerializerTest {

    private final String scope = "encoded-" + UUID.randomUUID();
    private final Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mem://" + scope));

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    private static byte[] body(TargetDefinition record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>(TargetDefinition.class).write(record, encoder);
        return out.toByteArray();
    }

    @Test
    void writesTheRecordSerializersBytes() throws IOException {
        TargetDefinition record = Records.targetDefinition();
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, config)) {
            byte[] fromBody = serde.encodedSerializer().serialize("targets", body(record));
            assertThat(fromBody).isEqualTo(serde.serializer().serialize("targets", record));
            assertThat(serde.deserializer().deserialize("targets", fromBody)).isEqualTo(record);
        }
    }

    @Test
    void underTheLatestVersionTheBodyIsWrittenThroughTheRecordSerializer() throws IOException {
        TargetDefinition record = Records.targetDefinition();
        try (AvroSerde<TargetDefinition> registering = AvroSerde.forValues(TargetDefinition.class, config)) {
            registering.serializer().serialize("targets", record);
        }
        config.put("use.latest.version", "true");
        config.put("auto.register.schemas", "false");
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, config)) {
            byte[] fromBody = serde.encodedSerializer().serialize("targets", body(record));
            assertThat(fromBody).isEqualTo(serde.serializer().serialize("targets", record));
        }
    }

    @Test
    void aNullBodyIsATombstone() {
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, config)) {
            assertThat(serde.encodedSerializer().serialize("targets", null)).isNull();
        }
    }
}
