package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a check verifies TLS: the default a new definition gets per profile, and what a stored record means,
 * including one written before GENERIC HTTPS verified by default.
 */
class TlsVerificationTest {

    private static final TargetSpec HTTPS = TargetSpec.of("web-1", "web", "10.0.0.8", 443, Protocol.HTTPS);
    private static final TlsSpec SKIP = new TlsSpec(true, null, null, 0);

    private static TargetSpec https(boolean tlsVerify) {
        return HTTPS.withHttp(new HttpSpec(HttpMethod.HEAD, "/", "web.example.com", List.of("2xx"), false, Map.of(),
                null, tlsVerify));
    }

    @Test
    void aNewGenericHttpsDefinitionVerifiesUnlessItSaysInsecureSkipVerify() {
        assertThat(TlsVerification.verifiesWhenUnsaid(Protocol.HTTPS, TargetProfile.GENERIC, false)).isTrue();
        assertThat(TlsVerification.verifiesWhenUnsaid(Protocol.HTTPS, null, false)).as("no profile is GENERIC")
                .isTrue();
        assertThat(TlsVerification.verifiesWhenUnsaid(Protocol.HTTPS, TargetProfile.GENERIC, true)).isFalse();
    }

    @Test
    void everyProductProfileKeepsNotVerifyingAsItsLoadBalancerDoes() {
        for (TargetProfile product : TargetProfile.values()) {
            if (product != TargetProfile.GENERIC) {
                assertThat(TlsVerification.verifiesWhenUnsaid(Protocol.HTTPS, product, false)).as(product.name())
                        .isFalse();
                assertThat(https(false).withProfile(product).tlsVerification()).as(product.name())
                        .isEqualTo(TlsVerification.OFF_UNDER_PROFILE);
            }
        }
    }

    @Test
    void plainHttpAndOtherProtocolsGetNoVerificationDefault() {
        for (Protocol p : Protocol.values()) {
            if (p != Protocol.HTTPS) {
                assertThat(TlsVerification.verifiesWhenUnsaid(p, TargetProfile.GENERIC, false)).as(p.name()).isFalse();
            }
        }
        assertThat(TargetSpec.of("a", "g", "10.0.0.1", 80, Protocol.HTTP).tlsVerification())
                .isEqualTo(TlsVerification.NO_TLS);
        assertThat(TargetSpec.of("a", "g", "10.0.0.1", 80, Protocol.TCP).tlsVerification())
                .isEqualTo(TlsVerification.NO_TLS);
        assertThat(TargetSpec.of("a", "g", "10.0.0.1", 50051, Protocol.GRPC).tlsVerification())
                .as("plaintext gRPC").isEqualTo(TlsVerification.NO_TLS);
    }

    @Test
    void aStoredGenericHttpsRecordOfTheOldDefaultKeepsProbingUnverifiedAndIsNamedSo() {
        // tlsVerify false and no insecureSkipVerify: what every HTTPS record written before the change holds
        assertThat(https(false).tlsVerification()).isEqualTo(TlsVerification.OFF_BY_OLD_DEFAULT);
        assertThat(https(false).verifiesTls()).as("its verdict does not change under it").isFalse();
    }

    @Test
    void whatAStoredRecordSaysIsWhatItGets() {
        assertThat(https(true).tlsVerification()).isEqualTo(TlsVerification.VERIFIED);
        assertThat(https(true).verifiesTls()).isTrue();
        assertThat(https(false).withTls(SKIP).tlsVerification()).isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
        assertThat(https(false).withTls(SKIP).verifiesTls()).isFalse();
        // a trust bundle does not turn verification on by itself in a stored record: tlsVerify does
        assertThat(https(false).withTls(new TlsSpec(false, "internal-ca", null, 0)).tlsVerification())
                .isEqualTo(TlsVerification.OFF_BY_OLD_DEFAULT);
        // under a product profile tlsVerify stays the switch it always was
        assertThat(https(true).withProfile(TargetProfile.TENCENT_CLB).tlsVerification())
                .isEqualTo(TlsVerification.VERIFIED);
        // plain HTTP's redirects to https verify only when tlsVerify says so
        TargetSpec http = TargetSpec.of("a", "g", "10.0.0.1", 80, Protocol.HTTP);
        assertThat(http.withHttp(https(true).http()).verifiesTls()).isTrue();
    }

    @Test
    void grpcOverTlsVerifiesUnlessSkippedWhateverItsHttpSectionHolds() {
        TargetSpec grpc = TargetSpec.of("a", "g", "10.0.0.1", 50051, Protocol.GRPC).withGrpc(new GrpcSpec("", true));
        assertThat(grpc.tlsVerification()).isEqualTo(TlsVerification.VERIFIED);
        assertThat(grpc.withTls(SKIP).tlsVerification()).isEqualTo(TlsVerification.SKIPPED_BY_DEFINITION);
    }
}
