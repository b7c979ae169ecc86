package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** One invalid fixture per rule, each with its exact message, plus valid fixtures and the all-at-once report. */
class TargetValidatorTest {

    private static final TargetSpec TCP = TargetSpec.of("web-1", "pool-a", "10.0.0.1", 8080, Protocol.TCP);
    private static final TargetSpec HTTP = TargetSpec.of("web-2", "pool-a", "10.0.0.2", 80, Protocol.HTTP);
    private static final TargetSpec UDP = TargetSpec.of("dns-1", "dns", "10.0.0.3", 53, Protocol.UDP);
    private static final TargetSpec ICMP = TargetSpec.of("gw", "infra", "10.0.0.254", 80, Protocol.ICMP);

    private static List<String> messages(TargetSpec spec) {
        return TargetValidator.validate(spec).stream().map(Violation::toString).toList();
    }

    private static HttpSpec http(String path, String host, List<String> statuses, Map<String, String> headers,
                                 String bodyContains) {
        return new HttpSpec(HttpMethod.GET, path, host, statuses, false, headers, bodyContains, false);
    }

    private static HttpSpec httpPath(String path) {
        return http(path, null, List.of("2xx"), Map.of(), null);
    }

    private static TargetSpec withId(TargetSpec s, String id) {
        return new TargetSpec(id, s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), s.labels(), s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static TargetSpec withAddress(TargetSpec s, String address) {
        return new TargetSpec(s.id(), s.group(), address, s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), s.labels(), s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static TargetSpec withPort(TargetSpec s, int port) {
        return new TargetSpec(s.id(), s.group(), s.address(), port, s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), s.labels(), s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static TargetSpec withWeight(TargetSpec s, int weight) {
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), weight, s.labels(), s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static TargetSpec withProtocol(TargetSpec s, Protocol protocol) {
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), protocol, s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), s.labels(), s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    @Test
    void defaultsOfEveryProtocolAreValid() {
        assertThat(messages(TCP)).isEmpty();
        assertThat(messages(HTTP)).isEmpty();
        assertThat(messages(withProtocol(HTTP, Protocol.HTTPS))).isEmpty();
        assertThat(messages(UDP)).isEmpty();
        assertThat(messages(ICMP)).isEmpty();
    }

    @Test
    void fullyLoadedDefinitionAtTheLimitsIsValid() {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            headers.put("X-Probe-" + i, "v" + i);
        }
        TargetSpec spec = withId(HTTP, "a".repeat(255))
                .withTiming(600_000, 60_000).withThresholds(10, 1)
                .withHttp(http("/" + "a".repeat(79), "api.example.com",
                        List.of("2xx", "3XX", "404", "100", "599"), headers, "x".repeat(500)))
                .withRegions(List.of("eu", "us", "ap"), QuorumPolicy.AT_LEAST, 3);
        assertThat(messages(withWeight(spec, 0))).isEmpty();
        assertThat(messages(withWeight(spec, 100).withTiming(100, 100))).isEmpty();
    }

    @Test
    void idMustBeNonEmpty() {
        assertThat(messages(withId(TCP, ""))).containsExactly("id: \"\" (expected: non-empty)");
        assertThat(messages(withId(TCP, null))).containsExactly("id: null (expected: non-empty)");
    }

    @Test
    void idIsAtMost255Characters() {
        assertThat(messages(withId(TCP, "a".repeat(256))))
                .containsExactly("id: 256 characters (expected: at most 255)");
    }

    @Test
    void idHasNoControlCharacters() {
        assertThat(messages(withId(TCP, "web\n1")))
                .containsExactly("id: \"web\\n1\" (expected: no control characters)");
        assertThat(messages(withId(TCP, "web\u00001")))
                .containsExactly("id: \"web\\u00001\" (expected: no control characters)");
    }

    @Test
    void groupMustBeNonEmpty() {
        assertThat(messages(TCP.withGroup(""))).containsExactly("group: \"\" (expected: non-empty)");
    }

    @Test
    void addressMustBeNonEmpty() {
        assertThat(messages(withAddress(TCP, "")))
                .containsExactly("address: \"\" (expected: non-empty IP address or host name)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::", "fe80::1%eth0",
            "2001:db8:0:0:0:0:0:1", "2001:db8::1", "::ffff:192.0.2.1", "localhost", "api.example.com",
            "api.example.com.", "a-b.c0", "xn--bcher-kva.example"})
    void addressAcceptsIpLiteralsAndHostNames(String address) {
        assertThat(messages(withAddress(TCP, address))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.256", "10.0.0", "1.2.3.4.5", "01.2.3.4", "2001:db8::1::2", "1:2:3:4:5:6:7:8:9",
            "12345::1", "-bad.example", "bad-.example", "under_score.example", "two..dots", "has space",
            "http://example.com", "a.b:80", "[::1]"})
    void addressRejectsWhatIsNeitherIpNorHostName(String address) {
        assertThat(messages(withAddress(TCP, address))).containsExactly(
                "address: \"" + address + "\" (expected: IPv4 or IPv6 address or host name)");
    }

    @Test
    void portIs1To65535() {
        assertThat(messages(withPort(TCP, 0))).containsExactly("port: 0 (expected: 1..65535)");
        assertThat(messages(withPort(TCP, 65_536))).containsExactly("port: 65536 (expected: 1..65535)");
        assertThat(messages(withPort(TCP, 65_535))).isEmpty();
    }

    @Test
    void portIsNotCheckedForIcmp() {
        assertThat(messages(withPort(ICMP, 0))).isEmpty();
    }

    @Test
    void protocolIsRequired() {
        assertThat(messages(withProtocol(TCP, null)))
                .containsExactly("protocol: null (expected: one of TCP, UDP, HTTP, HTTPS, ICMP, GRPC, DNS)");
    }

    @Test
    void intervalIs100msTo600s() {
        assertThat(messages(TCP.withTiming(99, 99)))
                .containsExactly("intervalMs: 99 (expected: 100..600000)", "timeoutMs: 99 (expected: 100..60000)");
        assertThat(messages(TCP.withTiming(600_001, 2_000)))
                .containsExactly("intervalMs: 600001 (expected: 100..600000)");
    }

    @Test
    void timeoutIs100msTo60s() {
        assertThat(messages(TCP.withTiming(120_000, 60_001)))
                .containsExactly("timeoutMs: 60001 (expected: 100..60000)");
    }

    @Test
    void aFixedRateProbesTimeoutIsNotAboveTheInterval() {
        assertThat(messages(TCP.withTiming(1_000, 1_001)))
                .containsExactly("timeoutMs: 1001 (expected: at most intervalMs = 1000)");
        assertThat(messages(UDP.withTiming(1_000, 1_001)))
                .containsExactly("timeoutMs: 1001 (expected: at most intervalMs = 1000)");
    }

    @Test
    void aFixedDelayProbesTimeoutMayExceedTheInterval() {
        // SPEC section 5: the next probe waits for this one to end, so nothing overlaps (003: 2 s with 3 s)
        assertThat(messages(HTTP.withTiming(2_000, 3_000))).isEmpty();
        assertThat(messages(withProtocol(HTTP, Protocol.HTTPS).withTiming(2_000, 3_000))).isEmpty();
        assertThat(messages(TCP.withTiming(2_000, 3_000).withProfile(TargetProfile.ALIBABA_GA))).isEmpty();
    }

    @Test
    void healthyThresholdIs1To10() {
        assertThat(messages(TCP.withThresholds(0, 3))).containsExactly("healthyThreshold: 0 (expected: 1..10)");
        assertThat(messages(TCP.withThresholds(11, 3))).containsExactly("healthyThreshold: 11 (expected: 1..10)");
    }

    @Test
    void unhealthyThresholdIs1To10() {
        assertThat(messages(TCP.withThresholds(3, 0))).containsExactly("unhealthyThreshold: 0 (expected: 1..10)");
        assertThat(messages(TCP.withThresholds(3, 11))).containsExactly("unhealthyThreshold: 11 (expected: 1..10)");
    }

    @Test
    void weightIs0To100() {
        assertThat(messages(withWeight(TCP, -1))).containsExactly("weight: -1 (expected: 0..100)");
        assertThat(messages(withWeight(TCP, 101))).containsExactly("weight: 101 (expected: 0..100)");
    }

    @Test
    void httpPathStartsWithSlash() {
        assertThat(messages(HTTP.withHttp(httpPath("health")))).containsExactly(
                "http.path: \"health\" (expected: starts with '/', 1..80 characters of letters, digits and -/.%?#&=_;~!()*[]@$^:',+)");
    }

    @Test
    void httpPathIsAtMost80Characters() {
        String path = "/" + "a".repeat(80);
        assertThat(messages(HTTP.withHttp(httpPath(path)))).containsExactly(
                "http.path: \"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" (81 characters) "
                        + "(expected: starts with '/', 1..80 characters of letters, digits and -/.%?#&=_;~!()*[]@$^:',+)");
    }

    @Test
    void httpPathUsesTheAllowedCharacterSetOnly() {
        assertThat(messages(HTTP.withHttp(httpPath("/health?probe=1&x=%20#top_~")))).isEmpty();
        assertThat(messages(HTTP.withHttp(httpPath("/he alth")))).containsExactly(
                "http.path: \"/he alth\" (expected: starts with '/', 1..80 characters of letters, digits and -/.%?#&=_;~!()*[]@$^:',+)");
    }

    @Test
    void expectedStatusesAreNonEmpty() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of(), Map.of(), null)))).containsExactly(
                "http.expectedStatuses: [] (expected: at least one of 1xx..5xx or a code 100..599)");
    }

    @Test
    void expectedStatusesAreClassesOrCodes() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx", "600", "6xx", "99", "ok"), Map.of(), null))))
                .containsExactly(
                        "http.expectedStatuses: \"600\" (expected: 1xx..5xx or a code 100..599)",
                        "http.expectedStatuses: \"6xx\" (expected: 1xx..5xx or a code 100..599)",
                        "http.expectedStatuses: \"99\" (expected: 1xx..5xx or a code 100..599)",
                        "http.expectedStatuses: \"ok\" (expected: 1xx..5xx or a code 100..599)");
    }

    @Test
    void atMost8Headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < 9; i++) {
            headers.put("X-H" + i, "v");
        }
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), headers, null))))
                .containsExactly("http.headers: 9 headers (expected: at most 8)");
    }

    @Test
    void headerNamesAreTokens() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of("X Bad", "v"), null))))
                .containsExactly(
                        "http.headers[X Bad]: name \"X Bad\" (expected: a token: letters, digits and !#$%&'*+-.^_`|~)");
    }

    @Test
    void headerNamesHaveNoCrLf() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of("X-A\r\nEvil", "v"), null))))
                .containsExactly("http.headers[X-A\\r\\nEvil]: name \"X-A\\r\\nEvil\" "
                        + "(expected: a token: letters, digits and !#$%&'*+-.^_`|~)");
    }

    @Test
    void headerValuesHaveNoCrLfAndARefusalNeverShowsOne() {
        // a header value may be a credential: the refusal (logged, and published on the rejected topic) names its size
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of("X-A", "Bearer SECRET\r\nX-Evil: 1"), null))))
                .containsExactly("http.headers[X-A]: (value hidden, 24 characters) (expected: no CR or LF in the value)");
    }

    @Test
    void hostIsNotSettableThroughHeaders() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of("host", "a.example"), null))))
                .containsExactly("http.headers[host]: \"a.example\" (expected: no Host header here; set http.host)");
    }

    @Test
    void metadataServiceHeadersAreRefused() {
        for (String name : List.of("Metadata-Flavor", "metadata-flavor", "X-Google-Metadata-Request", "Metadata",
                "X-aws-ec2-metadata-token", "X-AWS-EC2-METADATA-TOKEN-TTL-SECONDS")) {
            assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of(name, "Google"), null))))
                    .as(name)
                    .containsExactly("http.headers[" + name + "]: name \"" + name
                            + "\" (expected: not a cloud metadata service's request header)");
        }
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of("X-Metadata-Version", "1"), null))))
                .isEmpty();
    }

    @Test
    void httpHostIsAHostName() {
        assertThat(messages(HTTP.withHttp(http("/", "api.example.com", List.of("2xx"), Map.of(), null)))).isEmpty();
        assertThat(messages(HTTP.withHttp(http("/", "bad host", List.of("2xx"), Map.of(), null))))
                .containsExactly("http.host: \"bad host\" (expected: a host name)");
    }

    @Test
    void bodyContainsIsAtMost500Characters() {
        assertThat(messages(HTTP.withHttp(http("/", null, List.of("2xx"), Map.of(), "b".repeat(501)))))
                .containsExactly("http.bodyContains: 501 characters (expected: at most 500)");
    }

    @Test
    void bodyContainsNeedsGet() {
        HttpSpec head = new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, Map.of(), "ok", false);

        assertThat(messages(HTTP.withHttp(head)))
                .containsExactly("http.method: HEAD (expected: GET when bodyContains is set)");
    }

    @Test
    void httpSectionIsIgnoredForOtherProtocols() {
        assertThat(messages(TCP.withHttp(httpPath("no-slash")))).isEmpty();
    }

    @Test
    void udpPayloadModeNeedsRequestAndExpectedResponse() {
        assertThat(messages(UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, null, "")))).containsExactly(
                "udp.request: null (expected: 1..500 characters in PAYLOAD mode)",
                "udp.expectedResponse: \"\" (expected: 1..500 characters in PAYLOAD mode)");
        assertThat(messages(UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "ping", "pong")))).isEmpty();
    }

    @Test
    void udpPayloadsAreAtMost500Characters() {
        assertThat(messages(UDP.withUdp(new UdpSpec(UdpMode.PAYLOAD, "q".repeat(501), "r".repeat(502)))))
                .containsExactly("udp.request: 501 characters (expected: at most 500)",
                        "udp.expectedResponse: 502 characters (expected: at most 500)");
    }

    @Test
    void udpModeIsRequired() {
        assertThat(messages(UDP.withUdp(new UdpSpec(null, null, null))))
                .containsExactly("udp.mode: null (expected: PORT or PAYLOAD)");
    }

    @Test
    void tcpPayloadsAreAtMost500Characters() {
        assertThat(messages(TCP.withTcp(new TcpSpec("PING", "PONG")))).isEmpty();
        assertThat(messages(TCP.withTcp(new TcpSpec("s".repeat(501), "e".repeat(501)))))
                .containsExactly("tcp.send: 501 characters (expected: at most 500)",
                        "tcp.expect: 501 characters (expected: at most 500)");
    }

    @Test
    void regionsAreNonEmpty() {
        assertThat(messages(TCP.withRegions(List.of("eu", ""), QuorumPolicy.ANY, 1)))
                .containsExactly("regions: \"\" (expected: non-empty region names)");
    }

    @Test
    void regionsAreUnique() {
        assertThat(messages(TCP.withRegions(List.of("eu", "us", "eu"), QuorumPolicy.MAJORITY, 1)))
                .containsExactly("regions: \"eu\" twice (expected: unique region names)");
    }

    @Test
    void quorumAtLeastIsAtLeast1() {
        assertThat(messages(TCP.withRegions(List.of(), QuorumPolicy.AT_LEAST, 0)))
                .containsExactly("quorumAtLeast: 0 (expected: at least 1)");
    }

    @Test
    void quorumAtLeastIsAtMostTheNumberOfRegions() {
        assertThat(messages(TCP.withRegions(List.of("eu", "us"), QuorumPolicy.AT_LEAST, 3)))
                .containsExactly("quorumAtLeast: 3 (expected: 1..2, the number of regions)");
        assertThat(messages(TCP.withRegions(List.of(), QuorumPolicy.AT_LEAST, 3))).isEmpty();
    }

    @Test
    void reportsEveryViolationAtOnce() {
        TargetSpec bad = new TargetSpec("", "", "not a host", 0, Protocol.HTTP, 50, 70_000, 0, 11, true, 101,
                Map.of(), http("x", "bad host", List.of(), Map.of("Host", "h"), "b".repeat(501)),
                null, null, List.of("eu", "eu"), QuorumPolicy.AT_LEAST, 0);
        assertThat(messages(bad)).containsExactly(
                "id: \"\" (expected: non-empty)",
                "group: \"\" (expected: non-empty)",
                "address: \"not a host\" (expected: IPv4 or IPv6 address or host name)",
                "port: 0 (expected: 1..65535)",
                "intervalMs: 50 (expected: 100..600000)",
                "timeoutMs: 70000 (expected: 100..60000)",
                "healthyThreshold: 0 (expected: 1..10)",
                "unhealthyThreshold: 11 (expected: 1..10)",
                "weight: 101 (expected: 0..100)",
                "http.path: \"x\" (expected: starts with '/', 1..80 characters of letters, digits and -/.%?#&=_;~!()*[]@$^:',+)",
                "http.host: \"bad host\" (expected: a host name)",
                "http.expectedStatuses: [] (expected: at least one of 1xx..5xx or a code 100..599)",
                "http.headers[Host]: \"h\" (expected: no Host header here; set http.host)",
                "http.bodyContains: 501 characters (expected: at most 500)",
                "regions: \"eu\" twice (expected: unique region names)",
                "quorumAtLeast: 0 (expected: at least 1)");
    }

    @Test
    void violationRendersFieldColonMessage() {
        assertThat(new Violation("unhealthyThreshold", "0 (expected: 1..10)"))
                .hasToString("unhealthyThreshold: 0 (expected: 1..10)");
    }
}
