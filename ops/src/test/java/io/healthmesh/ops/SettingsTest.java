package io.healthmesh.ops;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsTest {

    @Test
    void environmentOverridesTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("prober.properties");
        Files.writeString(file, "region = eu\nhttp.port=9100\nkafka.security.protocol=SSL\n");

        Map<String, String> settings = Settings.load(file, Map.of(
                "HEALTHMESH_HTTP_PORT", "9200",
                "HEALTHMESH_SCHEMA_REGISTRY_URL", "http://r:8081",
                "HEALTHMESH_JAVA_OPTS", "-Xmx1g",
                "PATH", "/bin"));

        assertThat(settings).containsExactlyInAnyOrderEntriesOf(Map.of(
                "region", "eu",
                "http.port", "9200",
                "schema.registry.url", "http://r:8081",
                "kafka.security.protocol", "SSL"));
    }

    @Test
    void kafkaKeysArePassedThroughWithoutThePrefix() {
        var props = Settings.kafka(Map.of("kafka.sasl.mechanism", "PLAIN", "region", "a", "kafka.", "x"));

        assertThat(props).containsOnlyKeys("sasl.mechanism");
        assertThat(props.getProperty("sasl.mechanism")).isEqualTo("PLAIN");
    }

    @Test
    void noFileMeansEnvironmentOnly() {
        assertThat(Settings.load(null, Map.of("HEALTHMESH_REGION", "b"))).containsExactlyEntriesOf(Map.of("region", "b"));
    }

    @Test
    void aMissingFileIsAClearError(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");

        assertThatThrownBy(() -> Settings.load(missing, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("config file not found: " + missing);
    }

    @Test
    void envNamesMapToDottedKeys() {
        assertThat(Settings.keyOf("HEALTHMESH_KAFKA_SASL_JAAS_CONFIG")).isEqualTo("kafka.sasl.jaas.config");
    }
}
