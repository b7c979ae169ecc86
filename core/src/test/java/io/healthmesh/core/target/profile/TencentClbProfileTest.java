package io.healthmesh.core.target.profile;

import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.healthmesh.core.target.TargetProfile.TENCENT_CLB;
import static io.healthmesh.core.target.profile.ProfileCells.messages;
import static io.healthmesh.core.target.profile.ProfileCells.spec;
import static io.healthmesh.core.target.profile.ProfileCells.walkRange;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/PROFILES.md, TENCENT_CLB (000), cell by cell. */
class TencentClbProfileTest {

    private final TargetSpec http = spec(TENCENT_CLB, Protocol.HTTP);
    private final TargetSpec tcp = spec(TENCENT_CLB, Protocol.TCP);

    @Test
    void defaults() {
        assertThat(http.timeoutMs()).isEqualTo(2_000);
        assertThat(http.intervalMs()).isEqualTo(5_000);
        assertThat(http.unhealthyThreshold()).isEqualTo(3);
        assertThat(http.healthyThreshold()).isEqualTo(3);
        assertThat(http.http().method()).isEqualTo(HttpMethod.HEAD);
        assertThat(http.http().expectedStatuses()).containsExactly("2xx");
        assertThat(spec(TENCENT_CLB, Protocol.UDP).udp().mode()).isEqualTo(UdpMode.PORT);
        assertThat(http.fixedDelay()).isTrue();
        assertThat(tcp.fixedDelay()).as("L4 at a fixed rate").isFalse();
        assertThat(spec(TENCENT_CLB, Protocol.UDP).fixedDelay()).isFalse();
        assertThat(TENCENT_CLB.firstProbeAfterOneInterval()).as("DETECTING lasts interval x healthy").isTrue();
        assertThat(messages(http)).isEmpty();
        assertThat(messages(tcp)).isEmpty();
    }

    @Test
    void protocolsHaveNoIcmp() {
        assertThat(messages(spec(TENCENT_CLB, Protocol.HTTPS))).isEmpty();
        assertThat(messages(spec(TENCENT_CLB, Protocol.UDP))).isEmpty();
        assertThat(messages(spec(TENCENT_CLB, Protocol.ICMP)))
                .containsExactly("protocol: ICMP (expected: one of TCP, UDP, HTTP, HTTPS under TENCENT_CLB)");
    }

    @Test
    void timeoutIs2To60Seconds() {
        walkRange(http, "timeoutMs", 2_000, 60_000, (s, v) -> s.withTiming(300_000, v));
    }

    @Test
    void intervalIs5To300Seconds() {
        walkRange(http, "intervalMs", 5_000, 300_000, (s, v) -> s.withTiming(v, 2_000));
    }

    @Test
    void thresholdsAre2To10() {
        walkRange(http, "unhealthyThreshold", 2, 10, (s, v) -> s.withThresholds(3, v));
        walkRange(http, "healthyThreshold", 2, 10, (s, v) -> s.withThresholds(v, 3));
    }

    @Test
    void aFixedRateProbeKeepsItsTimeoutWithinTheInterval() {
        assertThat(messages(tcp.withTiming(5_000, 6_000)))
                .containsExactly("timeoutMs: 6000 (expected: at most intervalMs = 5000)");
        assertThat(messages(http.withTiming(5_000, 6_000))).as("L7: fixed delay").isEmpty();
    }

    @Test
    void payloadsAllowedStatusJudgedOnly() {
        assertThat(messages(tcp.withTcp(new TcpSpec("PING", "PONG")))).isEmpty();
        assertThat(messages(spec(TENCENT_CLB, Protocol.UDP).withUdp(new UdpSpec(UdpMode.PAYLOAD, "hi", "ho"))))
                .isEmpty();
        assertThat(messages(http.withHttp(new HttpSpec(HttpMethod.GET, "/", "example.com", List.of("200", "3xx"),
                true, Map.of("X-A", "1"), null, false)))).isEmpty();
        assertThat(messages(http.withHttp(new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false, Map.of(),
                "ok", false))))
                .containsExactly("http.bodyContains: set (expected: not set under TENCENT_CLB, which judges the status only)");
    }

    @Test
    void theWorkedExamples() {
        var examples = ProfileTable.of(TENCENT_CLB).examples();
        TargetSpec l7 = examples.get(0).toSpec(TENCENT_CLB, "clb", "10.0.0.1", 80);
        DetectionWindow w7 = DetectionWindow.of(l7, Duration.ofSeconds(1));
        assertThat(w7.toUnhealthy()).isEqualTo(Duration.ofSeconds(16));
        assertThat(w7.toHealthy()).isEqualTo(Duration.ofSeconds(13));
        TargetSpec l4 = examples.get(1).toSpec(TENCENT_CLB, "clb", "10.0.0.1", 80);
        DetectionWindow w4 = DetectionWindow.of(l4, Duration.ofSeconds(1));
        assertThat(w4.toUnhealthy()).isEqualTo(Duration.ofSeconds(10));
        assertThat(w4.toHealthy()).isEqualTo(Duration.ofSeconds(10));
    }
}
