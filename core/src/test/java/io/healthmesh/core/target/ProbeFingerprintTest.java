package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeFingerprintTest {

    private static final TargetSpec TCP = TargetSpec.of("web-1", "pool", "10.0.0.1", 80, Protocol.TCP);

    @Test
    void generationsStayWithin53BitsOnRandomDefinitions() {
        Random random = new Random(53);
        long seenHighBits = 0;
        for (int i = 0; i < 100_000; i++) {
            TargetSpec spec = TCP.withTcp(new TcpSpec("s" + random.nextLong(), random.nextBoolean() ? null : "e" + i));
            long generation = ProbeFingerprint.of(spec);
            assertThat(generation).isBetween(0L, ProbeFingerprint.MAX);
            seenHighBits |= generation;
        }
        // every one of the 53 bits is used: the fold keeps the hash's spread
        assertThat(seenHighBits).isEqualTo(ProbeFingerprint.MAX);
    }

    @Test
    void fieldsAreLengthPrefixedSoShiftedSeparatorsDoNotCollide() {
        // before: "x|y" + no expect hashed the same text as "x" + expect "y|null"
        assertThat(ProbeFingerprint.of(TCP.withTcp(new TcpSpec("x|y", null))))
                .isNotEqualTo(ProbeFingerprint.of(TCP.withTcp(new TcpSpec("x", "y|null"))));
        assertThat(ProbeFingerprint.of(TCP.withTcp(new TcpSpec("", null))))
                .isNotEqualTo(ProbeFingerprint.of(TCP.withTcp(new TcpSpec(null, ""))));
        HttpSpec a = new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false, Map.of("A", "b=c"), null, false);
        HttpSpec b = new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false, Map.of("A=b", "c"), null, false);
        TargetSpec http = TargetSpec.of("w", "g", "10.0.0.1", 80, Protocol.HTTP);
        assertThat(ProbeFingerprint.of(http.withHttp(a))).isNotEqualTo(ProbeFingerprint.of(http.withHttp(b)));
    }

    @Test
    void onlyProbeParametersCount() {
        long base = ProbeFingerprint.of(TCP);
        assertThat(ProbeFingerprint.of(TCP.withTiming(1_000, 500).withThresholds(1, 1).withGroup("other")))
                .isEqualTo(base);
        assertThat(ProbeFingerprint.of(TargetSpec.of("web-1", "pool", "10.0.0.1", 81, Protocol.TCP))).isNotEqualTo(base);
        assertThat(ProbeFingerprint.of(TCP)).isEqualTo(base);
    }

    @Test
    void theFoldKeepsValuesInRange() {
        assertThat(ProbeFingerprint.fold(-1L)).isBetween(0L, ProbeFingerprint.MAX);
        assertThat(ProbeFingerprint.fold(Long.MIN_VALUE)).isBetween(0L, ProbeFingerprint.MAX);
        assertThat(ProbeFingerprint.fold(0L)).isZero();
    }
}
