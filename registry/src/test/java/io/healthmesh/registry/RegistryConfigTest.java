package io.healthmesh.registry;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryConfigTest {

    @Test
    void defaultsAreConfluentsTopicOnLoopbackAndAFreePort() {
        RegistryConfig config = RegistryConfig.defaults("127.0.0.1:9092");
        assertThat(config.topic()).isEqualTo("_schemas");
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isZero();
        assertThat(config.kafkaProperties()).isEmpty();
    }

    @Test
    void settingsWithKafkaPassThrough() {
        RegistryConfig config = RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.topic", "_s2",
                "http.port", "18081", "kafka.security.protocol", "SASL_SSL", "kafka.sasl.jaas.config", "secret"));
        assertThat(config.bootstrapServers()).isEqualTo("b:9092");
        assertThat(config.topic()).isEqualTo("_s2");
        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(config.port()).isEqualTo(18081);
        assertThat(config.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(config.toString()).contains("sasl.jaas.config").doesNotContain("secret");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("http.port", "70000", "registry.topic", "bad topic!", "colour", "red")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("colour: unknown setting")
                .hasMessageContaining("bootstrap.servers: missing")
                .hasMessageContaining("http.port: 70000 (expected: 0..65535)")
                .hasMessageContaining("registry.topic: bad topic! (expected: 1-249 of [A-Za-z0-9._-])");
    }

    @Test
    void theRecordChecksItsFields() {
        assertThatThrownBy(() -> new RegistryConfig("b:1", "_schemas", "h", -1, Map.of()))
                .hasMessage("port: -1 (expected: 0..65535)");
        assertThatThrownBy(() -> new RegistryConfig(" ", "_schemas", "h", 0, Map.of())).hasMessageContaining("bootstrapServers");
    }
}
