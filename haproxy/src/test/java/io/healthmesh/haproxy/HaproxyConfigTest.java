package io.healthmesh.haproxy;

import io.healthmesh.ops.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HaproxyConfigTest {

    @TempDir
    Path dir;

    private Map<String, String> settings(String... more) throws IOException {
        Path mapping = Files.writeString(dir.resolve("mapping.yaml"),
                "instances: [/run/haproxy/admin.sock]\nbackends: [{group: api, backend: be_api}]\n");
        Map<String, String> s = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "schema.registry.url", "http://127.0.0.1:8081", "mapping.file", mapping.toString()));
        for (int i = 0; i < more.length; i += 2) {
            s.put(more[i], more[i + 1]);
        }
        return s;
    }

    @Test
    void defaultsAsDocumented() throws IOException {
        HaproxyConfig c = HaproxyConfig.from(settings());
        assertThat(c.httpPort()).isEqualTo(8086);
        assertThat(c.interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.socketTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.changesPerSecond()).isEqualTo(5.0);
        assertThat(c.changesBurst()).isEqualTo(20);
        assertThat(c.source().topics().prefix()).isEqualTo("healthmesh.");
        assertThat(c.mapping().backends()).hasSize(1);
    }

    @Test
    void theFollowerGetsTheBrokersTheRegistryAndTheKafkaKeysButTheyAreNeverPrinted() throws IOException {
        HaproxyConfig c = HaproxyConfig.from(settings("kafka.sasl.jaas.config", "secret-jaas",
                "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "u:secret-pw"));
        assertThat(c.source().consumerSettings()).containsEntry("bootstrap.servers", "127.0.0.1:9092")
                .containsEntry("sasl.jaas.config", "secret-jaas");
        assertThat(c.source().serdeConfig()).containsEntry("schema.registry.url", "http://127.0.0.1:8081")
                .containsEntry("basic.auth.user.info", "u:secret-pw");
        assertThat(c.toString()).doesNotContain("secret").contains("sasl.jaas.config");
    }

    @Test
    void everyProblemAtOnce() throws IOException {
        assertThatThrownBy(() -> HaproxyConfig.from(settings("changes.per.second", "0", "reconcile.interval.ms",
                "10", "mapping.file", dir.resolve("missing.yaml").toString(), "colour", "blue")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                        .anyMatch(p -> p.startsWith("changes.per.second: 0"))
                        .anyMatch(p -> p.startsWith("reconcile.interval.ms: 10 (expected: 100..600000)"))
                        .anyMatch(p -> p.contains("(expected: an existing mapping file)"))
                        .anyMatch(p -> p.startsWith("colour")));
    }
}
