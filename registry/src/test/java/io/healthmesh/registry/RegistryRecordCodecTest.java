package io.healthmesh.registry;

import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.RegistryRecord;
import io.healthmesh.contract.registry.RegistryRecord.Config;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersion;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersionRemoved;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryRecordCodecTest {

    @Test
    void everyRecordKindRoundTrips() {
        for (RegistryRecord record : List.of(
                new SchemaVersion("s-value", 3, 7, "\"string\"", false),
                new SchemaVersion("s-value", 3, 7, "\"string\"", true),
                new SchemaVersionRemoved("s-value", 3),
                new Config(null, CompatibilityLevel.FULL),
                new Config("s-value", CompatibilityLevel.NONE),
                new Config("s-value", null))) {
            RegistryRecordCodec.KeyValue kv = RegistryRecordCodec.encode(record);
            assertThat(RegistryRecordCodec.decode(kv.key(), kv.value())).contains(record);
        }
    }

    @Test
    void keysAndValuesAreConfluentsJson() {
        RegistryRecordCodec.KeyValue kv = RegistryRecordCodec.encode(new SchemaVersion("s-value", 2, 5, "\"string\"", false));
        assertThat(text(kv.key())).isEqualTo("{\"keytype\":\"SCHEMA\",\"subject\":\"s-value\",\"version\":2,\"magic\":1}");
        assertThat(text(kv.value())).isEqualTo("{\"subject\":\"s-value\",\"version\":2,\"id\":5,\"schema\":\"\\\"string\\\"\",\"deleted\":false}");
        RegistryRecordCodec.KeyValue config = RegistryRecordCodec.encode(new Config(null, CompatibilityLevel.FORWARD));
        assertThat(text(config.key())).isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":null,\"magic\":0}");
        assertThat(text(config.value())).isEqualTo("{\"compatibilityLevel\":\"FORWARD\"}");
        // the same subject version always has the same key bytes, so compaction keeps only its last state
        assertThat(RegistryRecordCodec.encode(new SchemaVersionRemoved("s-value", 2)).key()).isEqualTo(kv.key());
    }

    @Test
    void confluentKeyTypesThisRegistryDoesNotUseAreSkipped() {
        assertThat(RegistryRecordCodec.decode(bytes("{\"keytype\":\"NOOP\",\"magic\":0}"), null)).isEmpty();
        assertThat(RegistryRecordCodec.decode(bytes("{\"keytype\":\"MODE\",\"subject\":null,\"magic\":0}"), bytes("{\"mode\":\"READWRITE\"}"))).isEmpty();
    }

    @Test
    void garbageIsRefusedWithAReason() {
        assertThatThrownBy(() -> RegistryRecordCodec.decode(bytes("not json"), null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RegistryRecordCodec.decode(null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RegistryRecordCodec.decode(bytes("{\"keytype\":\"SCHEMA\"}"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subject");
        assertThatThrownBy(() -> RegistryRecordCodec.decode(bytes("{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":1}"), bytes("{}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
