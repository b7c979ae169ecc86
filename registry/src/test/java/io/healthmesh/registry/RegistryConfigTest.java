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
                "http.port", "18081", "kafka.security.protocol", "SASL_SSL", "kafka.sasl.jaas.config", "secret",
                "registry.users", "admin:admin:pw-secret"));
        assertThat(config.bootstrapServers()).isEqualTo("b:9092");
        assertThat(config.topic()).isEqualTo("_s2");
        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(config.port()).isEqualTo(18081);
        assertThat(config.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(config.toString()).contains("sasl.jaas.config").doesNotContain("secret");
        assertThat(config.contractPrefixes()).containsExactly("healthmesh.");
        assertThat(RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "none",
                "registry.contract.topic.prefixes", "a., b.")).contractPrefixes()).containsExactly("a.", "b.");
        assertThat(RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "none",
                "registry.contract.topic.prefixes", "")).contractPrefixes()).isEmpty();
    }

    @Test
    void theRoleRequiresUsersUnlessAuthIsExplicitlyOff() {
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("bootstrap.servers", "b:9092")))
                .hasMessageContaining("registry.users: none (expected: at least one name:role:password");
        RegistryConfig open = RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "none"));
        assertThat(open.security().authenticate()).isFalse();
        assertThat(open.security().deletesEnabled()).isFalse();
        assertThat(open.security().configChangesEnabled()).isFalse();
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "ldap")))
                .hasMessageContaining("registry.auth: ldap (expected: basic or none)");
    }

    @Test
    void usersFromAFileAndTheEnvironmentTogether(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("users");
        java.nio.file.Files.writeString(file, "# registry users\nadmin:admin:from-file\n");
        RegistryConfig config = RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.users.file", file.toString(),
                "registry.users", "worker:read:from-env", "registry.deletes.enable", "true", "registry.max.connections", "10",
                "registry.request.timeout.ms", "2000"));
        assertThat(config.security().users().list()).extracting(RegistryUsers.User::name).containsExactlyInAnyOrder("admin", "worker");
        assertThat(config.security().deletesEnabled()).isTrue();
        assertThat(config.security().anonymousRead()).isFalse();
        assertThat(config.limits().maxConnections()).isEqualTo(10);
        assertThat(config.limits().requestTimeout()).hasMillis(2000);
        assertThat(config.toString()).doesNotContain("from-file").doesNotContain("from-env");
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.users.file",
                dir.resolve("missing").toString()))).hasMessageContaining("registry.users.file: ");
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.users", "a:read:x",
                "registry.deletes.enable", "yes", "registry.max.connections", "0")))
                .hasMessageContaining("registry.deletes.enable: yes (expected: true or false)")
                .hasMessageContaining("registry.max.connections: 0 (expected: 1..1000000)");
    }

    @Test
    void tlsNeedsBothPemFilesOrAKeyStore() {
        assertThatThrownBy(() -> RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "none",
                "registry.ssl.certificate.location", "/c.pem")))
                .hasMessageContaining("only one given (expected: both)");
        RegistryConfig config = RegistryConfig.from(Map.of("bootstrap.servers", "b:9092", "registry.auth", "none",
                "registry.ssl.keystore.location", "/k.p12", "registry.ssl.keystore.password", "store-secret"));
        assertThat(config.security().tls().keyStore()).hasToString("/k.p12");
        assertThat(config.toString()).doesNotContain("store-secret");
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
