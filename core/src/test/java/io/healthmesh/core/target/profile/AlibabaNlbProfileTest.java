package io.healthmesh.core.target.profile;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.core.target.TargetProfile.ALIBABA_NLB;
import static io.healthmesh.core.target.profile.ProfileCells.messages;
import static io.healthmesh.core.target.profile.ProfileCells.spec;
import static io.healthmesh.core.target.profile.ProfileCells.walkRange;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/PROFILES.md, ALIBABA_NLB (002), cell by cell: no numeric range in the document, so GENERIC's apply. */
class AlibabaNlbProfileTest {

    private final TargetSpec http = spec(ALIBABA_NLB, Protocol.HTTP);

    @Test
    void defaultsAreGenerics() {
        assertThat(http.intervalMs()).isEqualTo(5_000);
        assertThat(http.timeoutMs()).isEqualTo(2_000);
        assertThat(http.healthyThreshold()).isEqualTo(3);
        assertThat(http.unhealthyThreshold()).isEqualTo(3);
        assertThat(http.http().method()).isEqualTo(HttpMethod.HEAD);
        assertThat(spec(ALIBABA_NLB, Protocol.UDP).udp().mode()).isEqualTo(UdpMode.PORT);
        assertThat(spec(ALIBABA_NLB, Protocol.TCP).fixedDelay()).isFalse();
        assertThat(ALIBABA_NLB.omitsHostWithoutDomain()).isTrue();
        assertThat(ProfileTable.of(ALIBABA_NLB).examples()).isEmpty();
        assertThat(messages(http)).isEmpty();
    }

    @Test
    void protocolsAreTcpUdpHttp() {
        assertThat(messages(spec(ALIBABA_NLB, Protocol.TCP))).isEmpty();
        assertThat(messages(spec(ALIBABA_NLB, Protocol.UDP))).isEmpty();
        assertThat(messages(spec(ALIBABA_NLB, Protocol.HTTPS)))
                .containsExactly("protocol: HTTPS (expected: one of TCP, UDP, HTTP under ALIBABA_NLB)");
        assertThat(messages(spec(ALIBABA_NLB, Protocol.ICMP)))
                .containsExactly("protocol: ICMP (expected: one of TCP, UDP, HTTP under ALIBABA_NLB)");
    }

    @Test
    void rangesAreGenerics() {
        walkRange(http, "intervalMs", 100, 600_000, (s, v) -> s.withTiming(v, 100));
        walkRange(http, "timeoutMs", 100, 60_000, (s, v) -> s.withTiming(600_000, v));
        walkRange(http, "healthyThreshold", 1, 10, (s, v) -> s.withThresholds(v, 3));
        walkRange(http, "unhealthyThreshold", 1, 10, (s, v) -> s.withThresholds(3, v));
    }

    @Test
    void bothUdpMethodsAndTcpPayloads() {
        TargetSpec udp = spec(ALIBABA_NLB, Protocol.UDP);
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PORT, null, null)))).isEmpty();
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PAYLOAD, "q", "a")))).isEmpty();
        assertThat(messages(spec(ALIBABA_NLB, Protocol.TCP).withTcp(new TcpSpec("q", "a")))).isEmpty();
    }

    @Test
    void headOrGetStatusJudgedOnly() {
        assertThat(messages(http.withHttp(new HttpSpec(HttpMethod.GET, "/health", "shop.example.com",
                List.of("200"), false, Map.of(), null, false)))).isEmpty();
        assertThat(messages(http.withHttp(new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false, Map.of(),
                "ok", false))))
                .containsExactly("http.bodyContains: set (expected: not set under ALIBABA_NLB, which judges the status only)");
    }
}
