package io.healthmesh.registry;

import io.healthmesh.testkit.TestCertificates;
import io.healthmesh.registry.ListenerTls;
import io.healthmesh.registry.RegistrySecurity;
import io.healthmesh.registry.RegistryUsers;
import io.healthmesh.registry.SchemaRegistryServer;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The registry's listener over TLS (PEM files and a key store) and the client's {@code schema.registry.ssl.*}. It
 * lives in {@code testkit} beside {@link TestCertificates}, the test-only identity it needs: {@code registry} sits
 * below {@code testkit} and cannot use it.
 */
class RegistryTlsTest {

    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
    private static final RegistryUsers USERS = RegistryUsers.parseInline("admin:admin:adm1n,worker:read:w0rk", "test");

    @TempDir
    static Path dir;
    private static TestCertificates certs;

    @BeforeAll
    static void certificates() {
        certs = TestCertificates.create(dir);
    }

    private static Map<String, Object> client(String url, String userInfo) {
        Map<String, Object> config = new HashMap<>();
        config.put(RegistryClients.URL, url);
        config.put("basic.auth.credentials.source", "USER_INFO");
        config.put("basic.auth.user.info", userInfo);
        // generous: the build machine may be loaded, and a TLS handshake costs CPU
        config.put("http.connect.timeout.ms", "30000");
        config.put("schema.registry.ssl.truststore.location", certs.trustStore().toString());
        config.put("schema.registry.ssl.truststore.password", certs.password());
        return config;
    }

    @Test
    void pemListenerServesAuthenticatedClientsThatTrustIt() throws Exception {
        RegistrySecurity security = RegistrySecurity.basic(USERS)
                .withTls(ListenerTls.pem(certs.certificatePem(), certs.privateKeyPem(), null));
        try (SchemaRegistryServer server = SchemaRegistryServer.startInMemory("127.0.0.1", 0, security)) {
            assertThat(server.url()).startsWith("https://127.0.0.1:");
            try (SchemaRegistryClient admin = RegistryClients.fromConfig(client(server.url(), "admin:adm1n"));
                 SchemaRegistryClient worker = RegistryClients.fromConfig(client(server.url(), "worker:w0rk"))) {
                int id = admin.register("t-value", SCHEMA);
                assertThat(worker.register("t-value", SCHEMA)).isEqualTo(id);
                assertThat(worker.schemaById(id)).contains("\"T\"");
            }
            Map<String, Object> untrusting = new HashMap<>(client(server.url(), "admin:adm1n"));
            untrusting.remove("schema.registry.ssl.truststore.location");
            try (SchemaRegistryClient stranger = RegistryClients.fromConfig(untrusting)) {
                assertThatThrownBy(() -> stranger.schemaById(1)).isInstanceOf(RegistryException.class)
                        .hasMessageContaining("unreachable");
            }
        }
    }

    @Test
    void keyStoreListenerAndPlainHttpToItFails() throws Exception {
        RegistrySecurity security = RegistrySecurity.basic(USERS)
                .withTls(ListenerTls.keyStore(certs.keyStore(), certs.password(), "PKCS12", null));
        try (SchemaRegistryServer server = SchemaRegistryServer.startInMemory("127.0.0.1", 0, security)) {
            try (SchemaRegistryClient admin = RegistryClients.fromConfig(client(server.url(), "admin:adm1n"))) {
                assertThat(admin.register("k-value", SCHEMA)).isPositive();
            }
            Map<String, Object> plain = client(server.url().replace("https://", "http://"), "worker:w0rk");
            plain.put(RegistryClients.ALLOW_INSECURE_HTTP, "true");
            try (SchemaRegistryClient cleartext = RegistryClients.fromConfig(plain)) {
                assertThatThrownBy(() -> cleartext.schemaById(1)).isInstanceOf(RegistryException.class);
            }
        }
    }

    @Test
    void aBadTrustStoreIsAConfigError() {
        Map<String, Object> config = client("https://127.0.0.1:1", "admin:adm1n");
        config.put("schema.registry.ssl.truststore.location", dir.resolve("missing.p12").toString());
        assertThatThrownBy(() -> RegistryClients.fromConfig(config)).hasMessageContaining("schema.registry.ssl.truststore.location")
                .hasMessageNotContaining(certs.password());
        assertThat(List.of(certs.keyStore(), certs.trustStore())).allMatch(p -> p.toFile().isFile());
    }
}
