package io.healthmesh.status;

import io.healthmesh.ops.InvalidSettingsException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The status role's settings: defaults, every key read, one clear message per rule, no credential printed. */
class StatusConfigTest {

    private static final Map<String, String> REQUIRED = Map.of("bootstrap.servers", "kafka:9092",
            "schema.registry.url", "http://registry:8081");

    private static Map<String, String> with(String key, String value) {
        Map<String, String> s = new HashMap<>(REQUIRED);
        s.put(key, value);
        return s;
    }

    @Test
    void defaultsApplyWhenOnlyTheRequiredKeysAreGiven() {
        StatusConfig c = StatusConfig.from(REQUIRED);
        assertThat(c.httpHost()).isEqualTo("0.0.0.0");
        assertThat(c.httpPort()).isEqualTo(StatusConfig.DEFAULT_HTTP_PORT);
        assertThat(c.source().topics().healthState()).isEqualTo("healthmesh.health-state");
        assertThat(c.page()).isEqualTo(StatusSettings.defaults());
        assertThat(c.http().separateOps()).isFalse();
        assertThat(c.source().consumerSettings()).containsExactly(Map.entry("bootstrap.servers", "kafka:9092"));
        assertThat(c.source().serdeConfig()).containsExactly(Map.entry("schema.registry.url", "http://registry:8081"));
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> s = new HashMap<>(REQUIRED);
        s.putAll(Map.of("topic.prefix", "hm-", "http.host", "127.0.0.1", "http.port", "0",
                "status.max.clients", "3", "status.history.size", "0", "metrics.per.target", "true",
                "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "reader:registry-secret",
                "kafka.security.protocol", "SSL", "http.token", "page-token-0123456789"));
        s.putAll(Map.of("ops.port", "9105", "schema.registry.ssl.truststore.location", "/etc/trust.p12"));
        StatusConfig c = StatusConfig.from(s);
        assertThat(c.source().topics().groupState()).isEqualTo("hm-group-state");
        assertThat(c.httpHost()).isEqualTo("127.0.0.1");
        assertThat(c.httpPort()).isZero();
        assertThat(c.page()).isEqualTo(new StatusSettings(3, 0, true));
        assertThat(c.source().consumerSettings()).containsEntry("security.protocol", "SSL");
        assertThat(c.source().serdeConfig()).containsEntry("basic.auth.user.info", "reader:registry-secret")
                .containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12");
        assertThat(c.http().apiToken()).isEqualTo("page-token-0123456789");
        assertThat(c.http().opsPort()).isEqualTo(9105);
        assertThat(c.toString()).doesNotContain("registry-secret").doesNotContain("page-token-0123456789");
    }

    @Test
    void everyRuleHasAClearMessage() {
        refused("status.history.size", "201", "status.history.size: 201 (expected: 0..200)");
        refused("status.max.clients", "0", "status.max.clients: 0 (expected: 1..1000)");
        refused("metrics.per.target", "yes", "metrics.per.target: yes (expected: true or false)");
        refused("http.port", "70000", "http.port: 70000 (expected: 0..65535)");
        refused("topic.prefix", "a/b", "topic.prefix: a/b (expected: 0-200 of [A-Za-z0-9._-])");
        refused("http.token", "short", "http.token");
        refused("status.page.enabled", "true", "status.page.enabled: unknown setting");
    }

    @Test
    void missingRequiredKeysAndSeveralProblemsAreReportedTogether() {
        assertThatThrownBy(() -> StatusConfig.from(Map.of("status.history.size", "-1")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("bootstrap.servers: missing")
                .hasMessageContaining("schema.registry.url: missing")
                .hasMessageContaining("status.history.size: -1 (expected: 0..200)");
    }

    private static void refused(String key, String value, String message) {
        assertThatThrownBy(() -> StatusConfig.from(with(key, value)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
