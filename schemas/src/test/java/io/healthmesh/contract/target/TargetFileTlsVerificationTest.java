package io.healthmesh.contract.target;

import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TlsCheck;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TLS verification default where a definition is written (the target file reader), and what the contract then
 * holds: a new GENERIC HTTPS definition stores {@code tlsVerify: true} unless it says {@code insecureSkipVerify};
 * product profiles store false; the old form {@code tlsVerify: false} alone is refused with the way to say it now;
 * and a record of the old default still reads as it did.
 */
class TargetFileTlsVerificationTest {

    private static TargetSpec one(String yaml) {
        TargetFileReader.Batch batch = TargetFileReader.readText("t.yaml", yaml, false);
        assertThat(batch.errors()).isEmpty();
        return batch.specs().get(0);
    }

    private static TargetFileReader.Batch read(String yaml) {
        return TargetFileReader.readText("t.yaml", yaml, false);
    }

    @Test
    void aGenericHttpsDefinitionVerifiesByDefaultAndApplyStoresItExplicitly() {
        TargetSpec bare = one("- {id: a, address: web.example.com, port: 443, protocol: HTTPS}\n");
        assertThat(bare.tlsVerification()).isEqualTo(TlsVerification.VERIFIED);
        assertThat(TargetSpecs.toAvro(bare).getHttp().getTlsVerify()).isTrue();
        TargetSpec withSection = one("- {id: a, address: web.example.com, port: 443, protocol: HTTPS,"
                + " http: {path: /ready}, tls: {trustId: internal-ca}}\n");
        assertThat(withSection.http().tlsVerify()).isTrue();
        assertThat(withSection.tls().trustId()).isEqualTo("internal-ca");
        assertThat(one("- {id: a, address: web.example.com, port: 443, protocol: HTTPS, http: {tlsVerify: true}}\n")
                .tlsVerification()).isEqualTo(TlsVerification.VERIFIED);
    }

    @Test
    void insecureSkipVerifyIsTheOneWayToTurnItOff() {
        TargetSpec skipped = one("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS,"
                + " tls: {insecureSkipVerify: true}}\n");
        assertThat(skipped.tlsVerification()).isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
        TargetDefinition stored = TargetSpecs.toAvro(skipped);
        assertThat(stored.getHttp().getTlsVerify()).isFalse();
        assertThat(stored.getTls().getInsecureSkipVerify()).isTrue();
        assertThat(TargetSpecs.tlsVerification(stored)).isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
    }

    @Test
    void theOldFormAloneIsRefusedNamingTheNewOne() {
        assertThat(read("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, http: {tlsVerify: false}}\n")
                .errors()).containsExactly("t.yaml: target a: http.tlsVerify: false (expected: true or absent: HTTPS"
                + " verifies the certificate by default; to probe without verifying write tls: {insecureSkipVerify:"
                + " true})");
        // with insecureSkipVerify it says the same thing twice: accepted (what targets get prints for such a record)
        assertThat(one("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, http: {tlsVerify: false},"
                + " tls: {insecureSkipVerify: true}}\n").tlsVerification())
                .isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
        // both on is the contradiction the validator names
        assertThat(read("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, http: {tlsVerify: true},"
                + " tls: {insecureSkipVerify: true}}\n").errors()).containsExactly("t.yaml: target a:"
                + " tls.insecureSkipVerify: true (expected: false when http.tlsVerify is true)");
    }

    @Test
    void productProfilesKeepNotVerifyingAndTheirSwitch() {
        for (String product : new String[] {"TENCENT_CLB", "TENCENT_EDGEONE", "ALIBABA_GA"}) {
            String base = "- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, profile: " + product;
            TargetSpec spec = one(base + (product.equals("ALIBABA_GA")
                    ? ", http: {method: GET, expectedStatuses: ['200']}}\n" : "}\n"));
            assertThat(spec.tlsVerification()).as(product).isEqualTo(TlsVerification.OFF_UNDER_PROFILE);
            assertThat(TargetSpecs.toAvro(spec).getHttp().getTlsVerify()).as(product).isFalse();
        }
        assertThat(one("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, profile: TENCENT_CLB,"
                + " http: {tlsVerify: false}}\n").tlsVerification()).isEqualTo(TlsVerification.OFF_UNDER_PROFILE);
        assertThat(one("- {id: a, address: 10.0.0.1, port: 443, protocol: HTTPS, profile: TENCENT_CLB,"
                + " http: {tlsVerify: true}}\n").tlsVerification()).isEqualTo(TlsVerification.VERIFIED);
    }

    @Test
    void plainHttpIsUnchanged() {
        TargetSpec http = one("- {id: a, address: 10.0.0.1, protocol: HTTP}\n");
        assertThat(http.http().tlsVerify()).isFalse();
        assertThat(one("- {id: a, address: 10.0.0.1, protocol: HTTP, http: {tlsVerify: false}}\n")
                .tlsVerification()).isEqualTo(TlsVerification.NO_TLS);
    }

    @Test
    void aRecordOfTheOldDefaultReadsAsItDidAndIsNamedSo() {
        // what a writer before the change stored for an HTTPS definition that said nothing about TLS
        TargetDefinition old = TargetDefinition.newBuilder().setId("a").setAddress("10.0.0.1").setPort(443)
                .setProtocol(Protocol.HTTPS).setHttp(HttpCheck.newBuilder().build()).build();
        assertThat(TargetSpecs.tlsVerification(old)).isEqualTo(TlsVerification.OFF_BY_OLD_DEFAULT);
        TargetSpec spec = TargetSpecs.fromAvro(old);
        assertThat(spec.verifiesTls()).isFalse();
        assertThat(spec.tlsVerification()).isEqualTo(TlsVerification.OFF_BY_OLD_DEFAULT);
        assertThat(TargetSpecs.tlsVerification(TargetDefinition.newBuilder(old)
                .setTls(TlsCheck.newBuilder().setInsecureSkipVerify(true).build()).build()))
                .isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
    }
}
