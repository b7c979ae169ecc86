package io.healthmesh.probe.tls;

import io.healthmesh.testkit.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CertificateFactsTest {

    private static final long DAY = TimeUnit.DAYS.toMillis(1);

    private static X509Certificate shortLived;
    private static X509Certificate longLived;

    @BeforeAll
    static void certificates(@TempDir Path dir) throws Exception {
        shortLived = read(TestCertificates.create(dir, "short", 3).certificatePem());
        longLived = read(TestCertificates.create(dir, "long", 400).certificatePem());
    }

    private static X509Certificate read(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void theLeafAndTheEarliestOfTheChain() {
        CertificateFacts facts = CertificateFacts.of(new Certificate[] {longLived, shortLived});
        assertThat(facts.leafNotAfterMs()).isEqualTo(longLived.getNotAfter().getTime());
        assertThat(facts.chainNotAfterMs()).isEqualTo(shortLived.getNotAfter().getTime());
    }

    @Test
    void daysLeftAreWholeDaysAndNegativeOnceExpired() {
        CertificateFacts facts = new CertificateFacts(10 * DAY, 10 * DAY);
        assertThat(facts.daysLeft(0)).isEqualTo(10);
        assertThat(facts.daysLeft(1)).isEqualTo(9);
        assertThat(facts.daysLeft(11 * DAY)).isEqualTo(-1);
    }

    @Test
    void minDaysLeftFailsWithADetailThatSaysWhichCertificate() {
        long now = System.currentTimeMillis();
        CertificateFacts leafOnly = CertificateFacts.of(new Certificate[] {shortLived});
        assertThat(leafOnly.belowMinimum(14, now)).isEqualTo("TLS: the certificate expires in 2 days (minCertDaysLeft 14)");
        assertThat(leafOnly.belowMinimum(2, now)).isNull();
        assertThat(leafOnly.belowMinimum(0, now)).isNull();
        CertificateFacts chain = CertificateFacts.of(new Certificate[] {longLived, shortLived});
        assertThat(chain.belowMinimum(14, now))
                .isEqualTo("TLS: a certificate of the chain expires in 2 days (minCertDaysLeft 14)");
    }

    @Test
    void noCertificateNoFacts() {
        assertThat(CertificateFacts.of(new Certificate[0])).isNull();
        assertThat(CertificateFacts.of((Certificate[]) null)).isNull();
    }
}
