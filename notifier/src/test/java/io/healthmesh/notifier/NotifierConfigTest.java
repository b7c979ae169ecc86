package io.healthmesh.notifier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NotifierConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaultsAndRoutes() throws Exception {
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes: [{name: a, type: webhook, url: 'http://127.0.0.1:1/'}]\n");
        NotifierConfig c = NotifierConfig.from(Map.of("bootstrap.servers", "k:9092", "schema.registry.url",
                "http://r:8081", "routes.file", routes.toString(), "kafka.sasl.jaas.config", "secret"));
        assertThat(c.groupId()).isEqualTo("healthmesh-notifier");
        assertThat(c.httpPort()).isEqualTo(8083);
        assertThat(c.routes()).hasSize(1);
        assertThat(c.kafka()).containsEntry("sasl.jaas.config", "secret");
        assertThat(c.toString()).doesNotContain("secret");
    }

    @Test
    void everyProblemAtOnce() {
        assertThatThrownBy(() -> NotifierConfig.from(Map.of("http.port", "70000", "retry.initial.ms", "5",
                "group.id", "a b", "routes.file", dir.resolve("missing.yaml").toString(), "colour", "red")))
                .hasMessageContaining("bootstrap.servers: missing")
                .hasMessageContaining("schema.registry.url: missing")
                .hasMessageContaining("http.port: 70000 (expected: 0..65535)")
                .hasMessageContaining("retry.initial.ms: 5 (expected: 10..60000)")
                .hasMessageContaining("group.id: a b (expected: 1-200 of [A-Za-z0-9._-])")
                .hasMessageContaining("(expected: an existing route file)")
                .hasMessageContaining("colour: unknown setting");
    }

    @Test
    void neitherTheRegistrysPasswordNorARoutesSecretPathIsShown() throws Exception {
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes: [{name: a, type: slack, url: 'https://hooks.example/services/T0/B0/HOOK-SECRET-1 x'}]\n");
        Map<String, String> settings = Map.of("bootstrap.servers", "k:9092", "schema.registry.url",
                "http://reader:REGISTRY-SECRET-2@r:8081", "routes.file", routes.toString());
        assertThatThrownBy(() -> NotifierConfig.from(settings))
                .hasMessageContaining("routes[0].url")
                .hasMessageNotContaining("HOOK-SECRET-1")
                .hasMessageNotContaining("REGISTRY-SECRET-2");
        Files.writeString(routes, "routes: [{name: a, type: webhook, url: 'http://127.0.0.1:1/'}]\n");
        assertThat(NotifierConfig.from(settings).toString()).contains("http://***@r:8081").doesNotContain("REGISTRY-SECRET-2");
    }
}
