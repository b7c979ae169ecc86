package io.healthmesh.core.target.profile;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.core.target.TargetProfile.GENERIC;
import static io.healthmesh.core.target.profile.ProfileCells.messages;
import static io.healthmesh.core.target.profile.ProfileCells.spec;
import static io.healthmesh.core.target.profile.ProfileCells.walkRange;
import static org.assertj.core.api.Assertions.assertThat;

/** docs/PROFILES.md, GENERIC: the union, today's defaults, messages without a profile suffix. */
class GenericProfileTest {

    private final TargetSpec http = spec(GENERIC, Protocol.HTTP);
    private final TargetSpec tcp = spec(GENERIC, Protocol.TCP);

    @Test
    void defaultsAreSpecSection5s() {
        TargetSpec legacy = TargetSpec.of("t-1", "g", "10.0.0.1", 80, Protocol.HTTP);
        assertThat(legacy.profile()).isEqualTo(TargetProfile.GENERIC);
        assertThat(http).isEqualTo(legacy);
        assertThat(tcp.fixedDelay()).isFalse();
        assertThat(http.fixedDelay()).isTrue();
        for (Protocol p : Protocol.values()) {
            // a DNS check has no default name to ask for
            TargetSpec spec = p == Protocol.DNS ? spec(GENERIC, p).withDns(new DnsSpec("example.com", null, null,
                    null, null)) : spec(GENERIC, p);
            assertThat(messages(spec)).as(p.name()).isEmpty();
        }
    }

    @Test
    void ranges() {
        walkRange(http, "intervalMs", 100, 600_000, (s, v) -> s.withTiming(v, 100));
        walkRange(http, "timeoutMs", 100, 60_000, (s, v) -> s.withTiming(600_000, v));
        walkRange(http, "healthyThreshold", 1, 10, (s, v) -> s.withThresholds(v, 3));
        walkRange(http, "unhealthyThreshold", 1, 10, (s, v) -> s.withThresholds(3, v));
    }

    @Test
    void theTimeoutMayExceedTheIntervalOnlyAtAFixedDelay() {
        assertThat(messages(http.withTiming(2_000, 3_000))).isEmpty();
        assertThat(messages(tcp.withTiming(2_000, 3_000)))
                .containsExactly("timeoutMs: 3000 (expected: at most intervalMs = 2000)");
    }

    @Test
    void pathSetIsGasPlusEquals() {
        assertThat(messages(http.withHttp(path("/a-b/c.d%20?x=1#y&z_;~!()*[]@$^:',+")))).isEmpty();
        assertThat(messages(http.withHttp(path("/a b")))).containsExactly(
                "http.path: \"/a b\" (expected: starts with '/', 1..80 characters of letters, digits and "
                        + "-/.%?#&=_;~!()*[]@$^:',+)");
    }

    private static HttpSpec path(String path) {
        return new HttpSpec(HttpMethod.GET, path, null, List.of("2xx"), false, Map.of(), null, false);
    }
}
