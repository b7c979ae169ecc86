package io.healthmesh.probe.tls;

import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TlsMaterialTest {

    @Test
    void loadsBundlesAndKeysByIdAndNeverShowsAKey(@TempDir Path dir) throws Exception {
        TestCertificates client = TestCertificates.create(dir, "client", 5);
        TlsMaterial material = TlsMaterial.load(Map.of("ca", client.certificatePem()),
                Map.of("probe", client.certificatePem()), Map.of("probe", client.privateKeyPem()));
        assertThat(material.trustIds()).containsExactly("ca");
        assertThat(material.clientKeyIds()).containsExactly("probe");
        String key = Files.readString(client.privateKeyPem());
        String body = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        assertThat(material.toString()).doesNotContain(body);
    }

    @Test
    void aKeyThatDoesNotParseNamesTheIdAndPathNotTheContent(@TempDir Path dir) throws Exception {
        TestCertificates client = TestCertificates.create(dir, "client", 5);
        Path wrong = dir.resolve("wrong.key.pem");
        Files.writeString(wrong, "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ1dC1icm9rZW4=\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(() -> TlsMaterial.load(Map.of(), Map.of("probe", client.certificatePem()),
                Map.of("probe", wrong)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tls client key probe (")
                .hasMessageContaining(wrong.toString())
                .hasMessageNotContaining("c2VjcmV0");
    }

    @Test
    void everyClientIdNeedsACertificateAndAKey(@TempDir Path dir) {
        assertThatThrownBy(() -> TlsMaterial.load(Map.of(), Map.of("a", dir.resolve("a.pem")), Map.of()))
                .hasMessageContaining("every id needs both a certificate and a key");
        assertThatThrownBy(() -> TlsMaterial.load(Map.of("ca", dir.resolve("missing.pem")), Map.of(), Map.of()))
                .hasMessageStartingWith("tls trust bundle ca: cannot read ");
    }
}
