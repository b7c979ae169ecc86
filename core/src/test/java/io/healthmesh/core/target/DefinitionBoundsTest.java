package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The size bounds of SPEC section 9: one fixture at each limit (valid) and one past it (exact message). */
class DefinitionBoundsTest {

    private static final TargetSpec TCP = TargetSpec.of("web-1", "pool-a", "10.0.0.1", 8080, Protocol.TCP);
    private static final TargetSpec HTTP = TargetSpec.of("web-2", "pool-a", "10.0.0.2", 80, Protocol.HTTP);

    private static List<String> messages(TargetSpec spec) {
        return TargetValidator.validate(spec).stream().map(Violation::toString).toList();
    }

    private static TargetSpec withLabels(TargetSpec s, Map<String, String> labels) {
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), labels, s.http(),
                s.udp(), s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private static HttpSpec headers(Map<String, String> headers) {
        return new HttpSpec(HttpMethod.GET, "/", null, List.of("2xx"), false, headers, null, false);
    }

    private static List<String> regions(int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add("r-" + i);
        }
        return out;
    }

    @Test
    void regionNamesFollowTheProberRegionRule() {
        assertThat(messages(TCP.withRegions(List.of("eu-west_1.a", "r".repeat(64)), QuorumPolicy.MAJORITY, 1)))
                .isEmpty();
        assertThat(messages(TCP.withRegions(List.of("r".repeat(65)), QuorumPolicy.MAJORITY, 1)))
                .containsExactly("regions: \"" + "r".repeat(40) + "...\" (65 characters) (expected: 1-64 of [A-Za-z0-9._-])");
        assertThat(messages(TCP.withRegions(List.of("eu west"), QuorumPolicy.MAJORITY, 1)))
                .containsExactly("regions: \"eu west\" (expected: 1-64 of [A-Za-z0-9._-])");
    }

    @Test
    void theFindingsSeventyThousandCharacterRegionIsRefusedWithAShortMessage() {
        List<String> found = messages(TCP.withRegions(List.of("x".repeat(70_000)), QuorumPolicy.MAJORITY, 1));
        assertThat(found).containsExactly("regions: \"" + "x".repeat(40)
                + "...\" (70000 characters) (expected: 1-64 of [A-Za-z0-9._-])");
    }

    @Test
    void atMost16Regions() {
        assertThat(messages(TCP.withRegions(regions(16), QuorumPolicy.MAJORITY, 1))).isEmpty();
        assertThat(messages(TCP.withRegions(regions(17), QuorumPolicy.MAJORITY, 1)))
                .containsExactly("regions: 17 regions (expected: at most 16)");
    }

    @Test
    void labelsAreBoundedInCountKeyAndValue() {
        Map<String, String> full = new HashMap<>();
        for (int i = 0; i < 32; i++) {
            full.put("k" + i + "x".repeat(120), "v".repeat(256));
        }
        assertThat(messages(withLabels(TCP, full))).isEmpty();
        full.put("one-more", "v");
        assertThat(messages(withLabels(TCP, full))).containsExactly("labels: 33 labels (expected: at most 32)");

        assertThat(messages(withLabels(TCP, Map.of("k".repeat(129), "v"))))
                .containsExactly("labels: key \"" + "k".repeat(40)
                        + "...\" (129 characters) (expected: 1..128 characters, no control characters)");
        assertThat(messages(withLabels(TCP, Map.of("", "v"))))
                .containsExactly("labels: key \"\" (expected: 1..128 characters, no control characters)");
        assertThat(messages(withLabels(TCP, Map.of("team", "v".repeat(257)))))
                .containsExactly("labels[team]: 257 characters (expected: at most 256)");
        assertThat(messages(withLabels(TCP, Map.of("team", "a\nb"))))
                .containsExactly("labels[team]: \"a\\nb\" (expected: no control characters)");
    }

    @Test
    void headerValuesAreAtMost1KiB() {
        assertThat(messages(HTTP.withHttp(headers(Map.of("X-Token", "t".repeat(1024)))))).isEmpty();
        assertThat(messages(HTTP.withHttp(headers(Map.of("X-Token", "t".repeat(1025))))))
                .containsExactly("http.headers[X-Token]: 1025 characters (expected: at most 1024)");
        assertThat(messages(HTTP.withHttp(headers(Map.of("X".repeat(129), "v")))))
                .containsExactly("http.headers: name of 129 characters (expected: at most 128)");
    }

    @Test
    void expectedStatusesAreAtMost16() {
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            statuses.add(Integer.toString(200 + i));
        }
        HttpSpec http = new HttpSpec(HttpMethod.GET, "/", null, statuses, false, Map.of(), null, false);
        assertThat(messages(HTTP.withHttp(http)))
                .containsExactly("http.expectedStatuses: 17 entries (expected: at most 16)");
    }

    @Test
    void idAndGroupAreValidUnicode() {
        TargetSpec lone = new TargetSpec("web\uD800", "g\uDC00", "10.0.0.1", 80, Protocol.TCP, 5_000, 2_000, 3, 3,
                true, 10, Map.of(), null, null, null, List.of(), QuorumPolicy.MAJORITY, 1);
        assertThat(messages(lone)).containsExactly(
                "id: 4 characters with an unpaired surrogate (expected: valid Unicode text)",
                "group: 2 characters with an unpaired surrogate (expected: valid Unicode text)");
        assertThat(messages(TCP.withGroup("pool-\uD83D\uDE00"))).isEmpty();
    }

    @Test
    void encodedSizeIsAtMost16KiB() {
        assertThat(TargetValidator.validateEncodedSize(16 * 1024)).isEmpty();
        assertThat(TargetValidator.validateEncodedSize(16 * 1024 + 1)).extracting(Violation::toString)
                .containsExactly("definition: 16385 bytes encoded (expected: at most 16384)");
    }

    @Test
    void resultBoundsCoverRegionProberIdAndDetail() {
        assertThat(ResultBounds.validate("eu-west-1", "prober-1", "d".repeat(200))).isEmpty();
        assertThat(ResultBounds.validate("x".repeat(70_000), "p".repeat(256), "d".repeat(201)))
                .extracting(Violation::toString).containsExactly(
                        "region: \"" + "x".repeat(40) + "...\" (70000 characters) (expected: 1-64 of [A-Za-z0-9._-])",
                        "proberId: 256 characters (expected: at most 255 characters of valid Unicode)",
                        "detail: 201 characters (expected: at most 200)");
        assertThat(ResultBounds.validateEncodedSize(4097)).extracting(Violation::toString)
                .containsExactly("result: 4097 bytes encoded (expected: at most 4096)");
    }
}
