package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code grpc} and {@code tls} sections' rules, one invalid fixture per rule with its exact message. */
class GrpcAndTlsRulesTest {

    private static final TargetSpec GRPC = TargetSpec.of("api-1", "api", "10.0.0.7", 50051, Protocol.GRPC);
    private static final TargetSpec GRPC_TLS = GRPC.withGrpc(new GrpcSpec("pkg.Api", true));
    private static final TargetSpec HTTPS = TargetSpec.of("web-1", "web", "10.0.0.8", 443, Protocol.HTTPS);

    private static List<String> messages(TargetSpec spec) {
        return TargetValidator.validate(spec).stream().map(Violation::toString).toList();
    }

    @Test
    void validGrpcDefinitions() {
        assertThat(messages(GRPC)).isEmpty();
        assertThat(messages(GRPC.withGrpc(new GrpcSpec("grpc.health.v1.Health", false)))).isEmpty();
        assertThat(messages(GRPC_TLS.withTls(new TlsSpec(false, "internal-ca", "probe-1", 14)))).isEmpty();
        assertThat(messages(GRPC_TLS.withTls(new TlsSpec(true, null, null, 0)))).isEmpty();
        assertThat(messages(HTTPS.withTls(new TlsSpec(false, null, null, 30)))).isEmpty();
    }

    @Test
    void grpcIsScheduledAsLayer7() {
        assertThat(GRPC.fixedDelay()).isTrue();
        assertThat(Protocol.GRPC.usesHttpSection()).isFalse();
    }

    @Test
    void aServiceNameIsBounded() {
        assertThat(messages(GRPC.withGrpc(new GrpcSpec("s".repeat(201), false))))
                .containsExactly("grpc.service: 201 characters (expected: at most 200)");
        assertThat(messages(GRPC.withGrpc(new GrpcSpec("my service", false)))).containsExactly(
                "grpc.service: \"my service\" (expected: printable ASCII without spaces, e.g. grpc.health.v1.Health;"
                        + " empty for the whole server)");
    }

    @Test
    void verificationIsOnForGrpcOverTlsUnlessSkippedAndHttpsFollowsItsStoredTlsVerify() {
        assertThat(GRPC_TLS.verifiesTls()).isTrue();
        assertThat(GRPC_TLS.withTls(new TlsSpec(true, null, null, 0)).verifiesTls()).isFalse();
        // a spec holding tlsVerify false without insecureSkipVerify is a record of the old default (TlsVerification)
        assertThat(HTTPS.verifiesTls()).isFalse();
        assertThat(HTTPS.withHttp(new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, Map.of(), null,
                true)).verifiesTls()).isTrue();
    }

    @Test
    void tlsSettingsNeedTls() {
        assertThat(messages(GRPC.withTls(new TlsSpec(false, null, null, 14)))).containsExactly(
                "tls: a TLS section for a probe without TLS (expected: only with protocol HTTPS, or GRPC with"
                        + " grpc.tls: true)");
    }

    @Test
    void idsAndDaysAreBounded() {
        assertThat(messages(GRPC_TLS.withTls(new TlsSpec(false, "../etc/ca.pem", "k".repeat(65), 3651))))
                .containsExactly(
                        "tls.trustId: \"../etc/ca.pem\" (expected: 1..64 of [A-Za-z0-9._-], the id of a prober setting)",
                        "tls.clientKeyId: \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...\" (65 characters) (expected: 1..64"
                                + " of [A-Za-z0-9._-], the id of a prober setting)",
                        "tls.minCertDaysLeft: 3651 (expected: 0..3650 (0: no rule))");
    }

    @Test
    void contradictionsAreRefused() {
        assertThat(messages(GRPC_TLS.withTls(new TlsSpec(true, "ca", null, 0)))).containsExactly(
                "tls.trustId: \"ca\" (expected: none with insecureSkipVerify: true (nothing is verified against it))");
        TargetSpec verifying = HTTPS.withHttp(new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false,
                Map.of(), null, true));
        assertThat(messages(verifying.withTls(new TlsSpec(true, null, null, 0))))
                .containsExactly("tls.insecureSkipVerify: true (expected: false when http.tlsVerify is true)");
    }

    @Test
    void productProfilesRefuseGrpcAndTlsSettingsNamingTheProduct() {
        TargetSpec grpc = ProfileTable.of(TargetProfile.TENCENT_CLB).newSpec("a", "g", "10.0.0.1", 50051,
                Protocol.GRPC);
        assertThat(messages(grpc)).anySatisfy(m -> assertThat(m).startsWith("protocol: GRPC (expected: one of ")
                .contains("TENCENT_CLB"));
        TargetSpec https = ProfileTable.of(TargetProfile.TENCENT_CLB).newSpec("b", "g", "10.0.0.1", 443,
                Protocol.HTTPS).withTls(new TlsSpec(false, null, null, 14));
        assertThat(messages(https)).contains("tls: a TLS section under profile TENCENT_CLB (expected: only under"
                + " profile GENERIC; TENCENT_CLB offers no such settings)");
    }

    @Test
    void grpcAndTlsSettingsChangeTheGenerationAndAbsentOnesKeepIt() {
        long plain = ProbeFingerprint.of(GRPC);
        assertThat(ProbeFingerprint.of(GRPC.withGrpc(new GrpcSpec("x", false)))).isNotEqualTo(plain);
        assertThat(ProbeFingerprint.of(GRPC_TLS)).isNotEqualTo(ProbeFingerprint.of(
                GRPC_TLS.withTls(new TlsSpec(false, null, null, 7))));
        // a definition without a tls section hashes as it did before the section existed
        assertThat(ProbeFingerprint.of(HTTPS.withTls(TlsSpec.DEFAULTS))).isEqualTo(ProbeFingerprint.of(HTTPS));
    }
}
