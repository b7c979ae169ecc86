package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** UDP payloads as hex bytes and the exact-match option (002: DNS and QUIC probes are binary). */
class UdpPayloadRulesTest {

    private static final TargetSpec UDP = TargetSpec.of("dns", "g", "10.0.0.53", 53, Protocol.UDP);

    private static java.util.List<String> messages(UdpSpec udp) {
        return TargetValidator.validate(UDP.withUdp(udp)).stream().map(Violation::toString).toList();
    }

    @Test
    void hexPayloadsArePairsOfHexDigits() {
        assertThat(messages(new UdpSpec(UdpMode.PAYLOAD, "00ff1A2b", "c0DE", true, false))).isEmpty();
        assertThat(messages(new UdpSpec(UdpMode.PAYLOAD, "abc", "zz", true, true))).containsExactly(
                "udp.request: \"abc\" (expected: pairs of hex digits 0-9a-f, as udp.hex is true)",
                "udp.expectedResponse: \"zz\" (expected: pairs of hex digits 0-9a-f, as udp.hex is true)");
        assertThat(messages(new UdpSpec(UdpMode.PAYLOAD, "ab".repeat(251), "00", true, false)))
                .containsExactly("udp.request: 502 characters (expected: at most 500)");
        assertThat(messages(new UdpSpec(UdpMode.PAYLOAD, "abc", "zz", false, false))).as("text: anything").isEmpty();
    }

    @Test
    void bytesAreDecodedFromHexOrUtf8() {
        UdpSpec hex = new UdpSpec(UdpMode.PAYLOAD, "00ff", "4f4b", true, true);
        assertThat(hex.requestBytes()).containsExactly(0x00, 0xff);
        assertThat(hex.expectedBytes()).containsExactly('O', 'K');
        assertThat(new UdpSpec(UdpMode.PAYLOAD, "é", null).requestBytes()).containsExactly(0xc3, 0xa9);
        assertThat(new UdpSpec(UdpMode.PAYLOAD, null, null).requestBytes()).isNull();
    }

    @Test
    void hexAndExactChangeTheGenerationOnlyWhenSet() {
        TargetSpec text = UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "abcd", "ef01"));
        TargetSpec sameShape = UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "abcd", "ef01", false, false));
        assertThat(ProbeFingerprint.of(sameShape)).isEqualTo(ProbeFingerprint.of(text));
        assertThat(ProbeFingerprint.of(UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "abcd", "ef01", true, false))))
                .isNotEqualTo(ProbeFingerprint.of(text));
        assertThat(ProbeFingerprint.of(UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "abcd", "ef01", false, true))))
                .isNotEqualTo(ProbeFingerprint.of(text));
    }
}
