package io.healthmesh.core.target.profile;

import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.healthmesh.core.target.TargetProfile.ALIBABA_GA;
import static io.healthmesh.core.target.profile.ProfileCells.messages;
import static io.healthmesh.core.target.profile.ProfileCells.spec;
import static io.healthmesh.core.target.profile.ProfileCells.walkRange;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/PROFILES.md, ALIBABA_GA (003), cell by cell. */
class AlibabaGaProfileTest {

    private final TargetSpec http = spec(ALIBABA_GA, Protocol.HTTP);
    private final TargetSpec tcp = spec(ALIBABA_GA, Protocol.TCP);

    @Test
    void defaults() {
        assertThat(http.intervalMs()).isEqualTo(2_000);
        assertThat(http.timeoutMs()).isEqualTo(3_000);
        assertThat(http.healthyThreshold()).isEqualTo(3);
        assertThat(http.unhealthyThreshold()).isEqualTo(3);
        assertThat(http.port()).isEqualTo(80);
        assertThat(http.http().method()).isEqualTo(HttpMethod.GET);
        assertThat(http.http().expectedStatuses()).containsExactly("200");
        assertThat(http.http().path()).isEqualTo("/");
        assertThat(http.http().followRedirects()).isFalse();
        assertThat(http.http().domain()).isNull();
        assertThat(http.fixedDelay()).isTrue();
        assertThat(tcp.fixedDelay()).as("every kind at a fixed delay").isTrue();
        // the document's own pair: 2 s interval, fixed 3 s timeout (was rejected before profiles)
        assertThat(messages(http)).isEmpty();
        assertThat(messages(tcp)).isEmpty();
    }

    @Test
    void protocolsAreTcpHttpHttps() {
        assertThat(messages(spec(ALIBABA_GA, Protocol.HTTPS))).isEmpty();
        assertThat(messages(spec(ALIBABA_GA, Protocol.UDP)))
                .containsExactly("protocol: UDP (expected: one of TCP, HTTP, HTTPS under ALIBABA_GA)");
        assertThat(messages(spec(ALIBABA_GA, Protocol.ICMP)))
                .containsExactly("protocol: ICMP (expected: one of TCP, HTTP, HTTPS under ALIBABA_GA)");
    }

    @Test
    void intervalIs1To50Seconds() {
        walkRange(http, "intervalMs", 1_000, 50_000, (s, v) -> s.withTiming(v, 3_000));
        assertThat(messages(http.withTiming(20_000, 3_000))).isEmpty();
        assertThat(messages(http.withTiming(60_000, 3_000)))
                .containsExactly("intervalMs: 60000 (expected: 1000..50000 under ALIBABA_GA)");
    }

    @Test
    void timeoutIsFixedAt3Seconds() {
        walkRange(http, "timeoutMs", 3_000, 3_000, (s, v) -> s.withTiming(2_000, v));
        assertThat(messages(tcp.withTiming(2_000, 2_000)))
                .containsExactly("timeoutMs: 2000 (expected: 3000 under ALIBABA_GA)");
    }

    @Test
    void oneThreshold2To10ForBothDirections() {
        assertThat(messages(http.withThresholds(2, 2))).isEmpty();
        assertThat(messages(http.withThresholds(10, 10))).isEmpty();
        assertThat(messages(http.withThresholds(1, 1))).containsExactly(
                "healthyThreshold: 1 (expected: 2..10 under ALIBABA_GA)",
                "unhealthyThreshold: 1 (expected: 2..10 under ALIBABA_GA)");
        assertThat(messages(http.withThresholds(11, 11))).containsExactly(
                "healthyThreshold: 11 (expected: 2..10 under ALIBABA_GA)",
                "unhealthyThreshold: 11 (expected: 2..10 under ALIBABA_GA)");
    }

    @Test
    void unhealthyThresholdEqualsTheHealthyOne() {
        assertThat(messages(http.withThresholds(2, 2))).isEmpty();
        assertThat(messages(http.withThresholds(10, 10))).isEmpty();
        assertThat(messages(http.withThresholds(3, 4))).containsExactly(
                "unhealthyThreshold: 4 (expected: equal to healthyThreshold = 3 under ALIBABA_GA, one threshold for both directions)");
        assertThat(messages(http.withThresholds(3, 1))).containsExactly(
                "unhealthyThreshold: 1 (expected: 2..10 under ALIBABA_GA)",
                "unhealthyThreshold: 1 (expected: equal to healthyThreshold = 3 under ALIBABA_GA, one threshold for both directions)");
    }

    @Test
    void getOnlyAndStatus200Only() {
        assertThat(messages(http.withHttp(with(HttpMethod.HEAD, List.of("200"), false, Map.of()))))
                .containsExactly("http.method: HEAD (expected: GET under ALIBABA_GA)");
        assertThat(messages(http.withHttp(with(HttpMethod.GET, List.of("2xx"), false, Map.of()))))
                .containsExactly("http.expectedStatuses: [2xx] (expected: [200] under ALIBABA_GA)");
        assertThat(messages(http.withHttp(with(HttpMethod.GET, List.of("200", "204"), false, Map.of()))))
                .containsExactly("http.expectedStatuses: [200, 204] (expected: [200] under ALIBABA_GA)");
    }

    @Test
    void noRedirectsNoHeadersNoBodyMatch() {
        assertThat(messages(http.withHttp(with(HttpMethod.GET, List.of("200"), true, Map.of()))))
                .containsExactly("http.followRedirects: true (expected: false under ALIBABA_GA)");
        assertThat(messages(http.withHttp(with(HttpMethod.GET, List.of("200"), false, Map.of("X-A", "1")))))
                .containsExactly("http.headers: 1 headers (expected: at most 0 under ALIBABA_GA)");
        HttpSpec body = new HttpSpec(HttpMethod.GET, "/", null, List.of("200"), false, Map.of(), "ok", false);
        assertThat(messages(http.withHttp(body)))
                .containsExactly("http.bodyContains: set (expected: not set under ALIBABA_GA, which judges the status only)");
        assertThat(messages(tcp.withTcp(new TcpSpec("PING", "PONG"))))
                .containsExactly("tcp: a payload exchange (expected: connect only under ALIBABA_GA)");
    }

    @Test
    void pathCharacterSetAsLine79StatesIt() {
        assertThat(messages(http.withHttp(path("/a-b/c.d%20?x#y&z_;~!()*[]@$^:',+")))).isEmpty();
        assertThat(messages(http.withHttp(path("/" + "a".repeat(79))))).isEmpty();
        assertThat(messages(http.withHttp(path("/a=b")))).containsExactly(
                "http.path: \"/a=b\" (expected: starts with '/', 1..80 characters of letters, digits and "
                        + "-/.%?#&_;~!()*[]@$^:',+ under ALIBABA_GA)");
        assertThat(messages(http.withHttp(path("/" + "a".repeat(80))))).hasSize(1);
        assertThat(messages(http.withHttp(path("health")))).hasSize(1);
    }

    @Test
    void theWorkedExamples() {
        assertThat(ProfileTable.of(ALIBABA_GA).examples()).hasSize(2);
        for (var example : ProfileTable.of(ALIBABA_GA).examples()) {
            TargetSpec s = example.toSpec(ALIBABA_GA, "ga", "10.0.0.1", 80);
            assertThat(messages(s)).isEmpty();
            DetectionWindow w = DetectionWindow.of(s, Duration.ofMillis(example.responseMs()));
            assertThat(w.toUnhealthy()).isEqualTo(Duration.ofSeconds(13));
            assertThat(w.toHealthy()).isEqualTo(Duration.ofSeconds(7));
        }
    }

    private static HttpSpec with(HttpMethod method, List<String> statuses, boolean redirects, Map<String, String> headers) {
        return new HttpSpec(method, "/", null, statuses, redirects, headers, null, false);
    }

    private static HttpSpec path(String path) {
        return new HttpSpec(HttpMethod.GET, path, null, List.of("200"), false, Map.of(), null, false);
    }
}
