package io.healthmesh.xds;

import io.healthmesh.ops.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XdsConfigTest {

    private static Map<String, String> minimal() {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", "broker:9092");
        s.put("schema.registry.url", "http://registry:8081");
        return s;
    }

    @Test
    void defaults() {
        XdsConfig c = XdsConfig.from(minimal());

        assertThat(c.listener().port()).isEqualTo(18000);
        assertThat(c.listener().host()).isEqualTo("0.0.0.0");
        assertThat(c.listener().tls()).isNull();
        assertThat(c.listener().maxStreams()).isEqualTo(10_000);
        assertThat(c.listener().maxStreamsPerConnection()).isEqualTo(100);
        assertThat(c.httpPort()).isEqualTo(8087);
        assertThat(c.zoneLabel()).isEqualTo("zone");
        assertThat(c.connectTimeoutMs()).isEqualTo(5000);
        assertThat(c.source().topics().groupState()).isEqualTo("healthmesh.group-state");
        assertThat(c.clusterNames().nameOf("web")).isEqualTo("web");
        assertThat(c.source().consumerSettings()).containsEntry("bootstrap.servers", "broker:9092");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        Map<String, String> s = new HashMap<>();
        s.put("xds.port", "70000");
        s.put("xds.max.streams", "0");
        s.put("locality.zone.label", "has space");
        s.put("http.token", "0123456789abcdef0123");
        s.put("xds.colour", "blue");

        assertThatThrownBy(() -> XdsConfig.from(s)).isInstanceOfSatisfying(InvalidSettingsException.class, e ->
                assertThat(e.problems()).containsExactlyInAnyOrder(
                        "bootstrap.servers: missing (expected: a value, this setting is required)",
                        "schema.registry.url: missing (expected: a value, this setting is required)",
                        "xds.port: 70000 (expected: 0..65535)",
                        "xds.max.streams: 0 (expected: 1..1000000)",
                        "locality.zone.label: has space (expected: 1-63 of [A-Za-z0-9._/-])",
                        "http.token: unknown setting (expected: a key of docs/CONFIGURATION.md \"## Xds\", or kafka.<Kafka client property>)",
                        "xds.colour: unknown setting (expected: a key of docs/CONFIGURATION.md \"## Xds\", or kafka.<Kafka client property>)"));
    }

    @Test
    void tlsNeedsACompleteIdentityAndClientCertificatesNeedOne() {
        Map<String, String> half = minimal();
        half.put("xds.ssl.certificate.location", "/etc/xds/cert.pem");
        Map<String, String> caOnly = minimal();
        caOnly.put("xds.ssl.client.ca.location", "/etc/xds/ca.pem");

        assertThatThrownBy(() -> XdsConfig.from(half)).isInstanceOfSatisfying(InvalidSettingsException.class, e ->
                assertThat(e.problems()).containsExactly("xds.ssl.certificate.location and xds.ssl.key.location: "
                        + "only one given (expected: both)"));
        assertThatThrownBy(() -> XdsConfig.from(caOnly)).isInstanceOfSatisfying(InvalidSettingsException.class, e ->
                assertThat(e.problems()).singleElement().asString().startsWith("xds.ssl.client.ca.location: set without"));
    }

    @Test
    void theClustersFileMapsGroupsToOtherNamesAndPasswordsAreNeverPrinted(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("clusters.properties");
        Files.writeString(file, "pool-1=backend\n");
        Map<String, String> s = minimal();
        s.put("clusters.file", file.toString());
        s.put("xds.ssl.keystore.location", "/etc/xds/keys.p12");
        s.put("xds.ssl.keystore.password", "very-secret-password");
        s.put("basic.auth.user.info", "user:registry-secret");

        XdsConfig c = XdsConfig.from(s);

        assertThat(c.clusterNames().nameOf("pool-1")).isEqualTo("backend");
        assertThat(c.toString()).doesNotContain("very-secret-password", "registry-secret");
    }
}
