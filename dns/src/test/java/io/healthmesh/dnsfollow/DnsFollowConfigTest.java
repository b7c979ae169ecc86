package io.healthmesh.dnsfollow;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DnsFollowConfigTest {

    private static final String SECRET = Base64.getEncoder().encodeToString(new byte[32]);

    @TempDir
    Path dir;

    private Path mapping() throws Exception {
        Files.writeString(dir.resolve("k.secret"), SECRET);
        return Files.writeString(dir.resolve("dns.yaml"), """
                keys: [{name: k, secretFile: k.secret}]
                records: [{group: api, zone: example.com, name: api, server: 127.0.0.1:53, key: k}]
                """);
    }

    @Test
    void defaultsAndTheMapping() throws Exception {
        DnsFollowConfig c = DnsFollowConfig.from(Map.of("bootstrap.servers", "k:9092", "schema.registry.url",
                "http://r:8081", "mapping.file", mapping().toString(), "kafka.sasl.jaas.config", "secret-jaas",
                "schema.registry.ssl.truststore.location", "/etc/trust.p12"));

        assertThat(c.httpPort()).isEqualTo(8088);
        assertThat(c.reconcileInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.changesPerSecond()).isEqualTo(10.0);
        assertThat(c.changesBurst()).isEqualTo(50);
        assertThat(c.updateTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.source().topics().prefix()).isEqualTo("healthmesh.");
        assertThat(c.mapping().names()).hasSize(1);
        assertThat(c.source().consumerSettings()).containsEntry("bootstrap.servers", "k:9092")
                .containsEntry("sasl.jaas.config", "secret-jaas");
        assertThat(c.source().serdeConfig()).containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12");
        assertThat(c.toString()).doesNotContain("secret-jaas").doesNotContain(SECRET);
    }

    @Test
    void everyProblemAtOnce() {
        Map<String, String> s = new HashMap<>();
        s.put("reconcile.interval.ms", "10");
        s.put("changes.per.second", "0");
        s.put("changes.burst", "0");
        s.put("update.timeout.ms", "x");
        s.put("mapping.file", dir.resolve("missing.yaml").toString());
        s.put("colour", "red");
        assertThatThrownBy(() -> DnsFollowConfig.from(s))
                .hasMessageContaining("invalid DNS settings")
                .satisfies(e -> assertThat(((io.healthmesh.ops.InvalidSettingsException) e).problems()).contains(
                        "bootstrap.servers: missing (expected: a value, this setting is required)",
                        "schema.registry.url: missing (expected: a value, this setting is required)",
                        "reconcile.interval.ms: 10 (expected: 1000..86400000)",
                        "changes.per.second: 0 (expected: 0.1..10000.0)",
                        "changes.burst: 0 (expected: 1..100000)",
                        "update.timeout.ms: x (expected: 100..60000)",
                        "mapping.file: " + dir.resolve("missing.yaml") + " (expected: an existing mapping file)",
                        "colour: unknown setting (expected: a key of docs/CONFIGURATION.md \"## DNS\", or kafka.<Kafka"
                                + " client property>)"));
    }
}
