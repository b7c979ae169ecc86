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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.healthmesh.core.target.TargetProfile.TENCENT_EDGEONE;
import static io.healthmesh.core.target.profile.ProfileCells.messages;
import static io.healthmesh.core.target.profile.ProfileCells.spec;
import static io.healthmesh.core.target.profile.ProfileCells.walkRange;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/PROFILES.md, TENCENT_EDGEONE (001), cell by cell. */
class TencentEdgeOneProfileTest {

    private final TargetSpec http = spec(TENCENT_EDGEONE, Protocol.HTTP);

    @Test
    void defaults() {
        assertThat(http.intervalMs()).isEqualTo(30_000);
        assertThat(http.timeoutMs()).isEqualTo(5_000);
        assertThat(http.unhealthyThreshold()).isEqualTo(2);
        assertThat(http.healthyThreshold()).isEqualTo(3);
        assertThat(http.port()).isEqualTo(80);
        assertThat(http.http().method()).isEqualTo(HttpMethod.HEAD);
        assertThat(http.http().expectedStatuses()).containsExactly("2xx");
        assertThat(http.http().followRedirects()).isFalse();
        assertThat(spec(TENCENT_EDGEONE, Protocol.UDP).udp().mode()).isEqualTo(UdpMode.PAYLOAD);
        for (Protocol p : Protocol.values()) {
            assertThat(spec(TENCENT_EDGEONE, p).fixedDelay()).as(p + " at a fixed delay").isTrue();
        }
        assertThat(TENCENT_EDGEONE.judgesLastResponseAtRedirectLimit()).isTrue();
        assertThat(messages(http)).isEmpty();
        assertThat(messages(spec(TENCENT_EDGEONE, Protocol.ICMP))).isEmpty();
        assertThat(messages(spec(TENCENT_EDGEONE, Protocol.TCP))).isEmpty();
    }

    @Test
    void intervalIs30To600Seconds() {
        walkRange(http, "intervalMs", 30_000, 600_000, (s, v) -> s.withTiming(v, 5_000));
    }

    @Test
    void timeoutIs1To30Seconds() {
        walkRange(http, "timeoutMs", 1_000, 30_000, (s, v) -> s.withTiming(30_000, v));
    }

    @Test
    void thresholdsAre1To5() {
        walkRange(http, "unhealthyThreshold", 1, 5, (s, v) -> s.withThresholds(3, v));
        walkRange(http, "healthyThreshold", 1, 5, (s, v) -> s.withThresholds(v, 2));
    }

    @Test
    void statusClassesOnly() {
        assertThat(messages(http.withHttp(statuses(List.of("1xx", "2XX", "3xx", "4xx", "5xx"))))).isEmpty();
        assertThat(messages(http.withHttp(statuses(List.of("2xx", "200")))))
                .containsExactly("http.expectedStatuses: \"200\" (expected: a class 1xx..5xx under TENCENT_EDGEONE)");
    }

    @Test
    void hostHeaderIsTheDomain() {
        HttpSpec withHost = new HttpSpec(HttpMethod.GET, "/test", null, List.of("2xx"), true,
                Map.of("host", "www.example.com"), null, false);
        assertThat(messages(http.withHttp(withHost))).isEmpty();
        assertThat(withHost.domain()).isEqualTo("www.example.com");
        HttpSpec disagree = new HttpSpec(HttpMethod.GET, "/", "a.example.com", List.of("2xx"), false,
                Map.of("Host", "b.example.com"), null, false);
        assertThat(messages(http.withHttp(disagree))).containsExactly(
                "http.headers[host]: \"b.example.com\" (expected: the same as http.host = \"a.example.com\" under TENCENT_EDGEONE)");
        // elsewhere the Host entry stays refused
        assertThat(messages(spec(io.healthmesh.core.target.TargetProfile.GENERIC, Protocol.HTTP).withHttp(withHost)))
                .containsExactly("http.headers[host]: \"www.example.com\" (expected: no Host header here; set http.host)");
    }

    @Test
    void atMost8Headers() {
        Map<String, String> eight = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            eight.put("X-" + i, "v");
        }
        assertThat(messages(http.withHttp(headers(eight)))).isEmpty();
        eight.put("X-8", "v");
        assertThat(messages(http.withHttp(headers(eight))))
                .containsExactly("http.headers: 9 headers (expected: at most 8)");
    }

    @Test
    void udpIsPayloadOnlyTcpConnectOnly() {
        TargetSpec udp = spec(TENCENT_EDGEONE, Protocol.UDP);
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PAYLOAD, "ping", "pong")))).isEmpty();
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PAYLOAD, "x".repeat(500), "y".repeat(500))))).isEmpty();
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PAYLOAD, "x".repeat(501), "pong"))))
                .containsExactly("udp.request: 501 characters (expected: at most 500)");
        assertThat(messages(udp)).containsExactly(
                "udp.request: null (expected: 1..500 characters in PAYLOAD mode)",
                "udp.expectedResponse: null (expected: 1..500 characters in PAYLOAD mode)");
        assertThat(messages(udp.withUdp(new UdpSpec(UdpMode.PORT, null, null))))
                .containsExactly("udp.mode: PORT (expected: PAYLOAD under TENCENT_EDGEONE)");
        assertThat(messages(spec(TENCENT_EDGEONE, Protocol.TCP).withTcp(new TcpSpec("a", "b"))))
                .containsExactly("tcp: a payload exchange (expected: connect only under TENCENT_EDGEONE)");
    }

    @Test
    void theWorkedExample() {
        for (var example : ProfileTable.of(TENCENT_EDGEONE).examples()) {
            TargetSpec s = example.toSpec(TENCENT_EDGEONE, "eo", "10.0.0.1", 80);
            DetectionWindow w = DetectionWindow.of(s, Duration.ofSeconds(1));
            assertThat(w.toUnhealthy()).as(example.protocol().name()).isEqualTo(Duration.ofSeconds(75));
            assertThat(w.toHealthy()).as(example.protocol().name()).isEqualTo(Duration.ofSeconds(63));
        }
    }

    private static HttpSpec statuses(List<String> statuses) {
        return new HttpSpec(HttpMethod.HEAD, "/", null, statuses, false, Map.of(), null, false);
    }

    private static HttpSpec headers(Map<String, String> headers) {
        return new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, headers, null, false);
    }
}
