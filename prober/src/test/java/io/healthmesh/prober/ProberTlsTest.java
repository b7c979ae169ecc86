package io.healthmesh.prober;

import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProberTlsTest {

    private static Map<String, String> settings(String... keyValues) {
        Map<String, String> m = new HashMap<>(Map.of("bootstrap.servers", "localhost:9092",
                "schema.registry.url", "mem://tls"));
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Test
    void noTlsMaterialByDefault() {
        assertThat(ProberConfig.from(settings()).tls()).isEqualTo(ProberTls.NONE);
    }

    @Test
    void idsNamePathsAndTheFilesAreReadWhenAsked(@TempDir Path dir) {
        TestCertificates client = TestCertificates.create(dir, "client", 10);
        ProberConfig c = ProberConfig.from(settings("tls.trust.bundles", "ca=" + client.certificatePem(),
                "tls.client.certificates", "probe=" + client.certificatePem(),
                "tls.client.keys", " probe = " + client.privateKeyPem() + " "));
        assertThat(c.tls().trustBundles()).containsEntry("ca", client.certificatePem());
        assertThat(c.tls().clientKeys()).containsEntry("probe", client.privateKeyPem());
        assertThat(c.tls().material().clientKeyIds()).containsExactly("probe");
        assertThat(c.toString()).contains("ProberTls[trustBundles=[ca], clientKeys=[probe]]")
                .doesNotContain(client.privateKeyPem().toString());
    }

    @Test
    void malformedEntriesAndUnpairedIdsAreReportedWithoutTheirText() {
        assertThatThrownBy(() -> ProberConfig.from(settings("tls.trust.bundles", "-----BEGIN PRIVATE KEY-----",
                "tls.client.certificates", "a=/c.pem,b=/d.pem", "tls.client.keys", "a=/k.pem,a=/k2.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tls.trust.bundles: an entry of 27 characters (expected: comma-separated id=path")
                .hasMessageNotContaining("BEGIN PRIVATE KEY")
                .hasMessageContaining("tls.client.keys: id a twice (expected: each id once)")
                .hasMessageContaining("tls.client.keys: no entry for id b (expected: an id=path entry for every id of"
                        + " tls.client.certificates)");
    }
}
