package io.healthmesh.contract.target;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.UdpMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** A target file's absent fields take the defaults of the target's profile (docs/PROFILES.md). */
class TargetFileProfileTest {

    private static TargetFileReader.Batch yaml(String text) {
        return TargetFileReader.readText("t.yaml", text, false);
    }

    @Test
    void gaFillsItsDefaultsAndTheOneThreshold() {
        TargetFileReader.Batch batch = yaml("""
                - {id: ga, address: 10.0.0.1, protocol: HTTP, profile: ALIBABA_GA}
                - {id: ga5, address: 10.0.0.1, protocol: TCP, profile: alibaba_ga, healthyThreshold: 5}
                """);
        assertThat(batch.errors()).isEmpty();
        TargetSpec ga = batch.specs().get(0);
        assertThat(ga.profile()).isEqualTo(TargetProfile.ALIBABA_GA);
        assertThat(List.of(ga.intervalMs(), ga.timeoutMs(), ga.healthyThreshold(), ga.unhealthyThreshold()))
                .containsExactly(2_000, 3_000, 3, 3);
        assertThat(ga.http().method()).isEqualTo(HttpMethod.GET);
        assertThat(ga.http().expectedStatuses()).containsExactly("200");
        assertThat(batch.specs().get(1).unhealthyThreshold()).isEqualTo(5);
    }

    @Test
    void edgeOneFillsItsDefaults() {
        TargetFileReader.Batch batch = yaml("""
                - {id: eo, address: 10.0.0.1, protocol: UDP, profile: TENCENT_EDGEONE,
                   udp: {request: ping, expectedResponse: pong}}
                - {id: eo-web, address: 10.0.0.1, protocol: HTTP, profile: TENCENT_EDGEONE,
                   http: {headers: {host: www.example.com}}}
                """);
        assertThat(batch.errors()).isEmpty();
        TargetSpec eo = batch.specs().get(0);
        assertThat(List.of(eo.intervalMs(), eo.timeoutMs(), eo.healthyThreshold(), eo.unhealthyThreshold()))
                .containsExactly(30_000, 5_000, 3, 2);
        assertThat(eo.udp().mode()).isEqualTo(UdpMode.PAYLOAD);
        assertThat(batch.specs().get(1).http().domain()).isEqualTo("www.example.com");
    }

    @Test
    void errorsNameTheProfile() {
        TargetFileReader.Batch batch = yaml("""
                - {id: ga, address: 10.0.0.1, protocol: HTTP, profile: ALIBABA_GA, intervalMs: 20000, timeoutMs: 2000}
                - {id: clb, address: 10.0.0.1, protocol: ICMP, profile: TENCENT_CLB}
                - {id: x, address: 10.0.0.1, protocol: TCP, profile: AWS}
                """);
        assertThat(batch.errors()).contains(
                "t.yaml: target ga: timeoutMs: 2000 (expected: 3000 under ALIBABA_GA)",
                "t.yaml: target clb: protocol: ICMP (expected: one of TCP, UDP, HTTP, HTTPS under TENCENT_CLB)");
        assertThat(batch.errors()).anySatisfy(e -> assertThat(e).contains("target x: profile: \"AWS\""));
    }

    @Test
    void theExamplesFileHasOneTargetPerProfile() {
        TargetFileReader.Batch batch = TargetFileReader.read(List.of(Path.of("..", "examples", "targets.yaml")),
                TargetFileReaderTest.InputStreamOfNothing.INSTANCE);
        assertThat(batch.errors()).isEmpty();
        Set<TargetProfile> profiles = batch.specs().stream().map(TargetSpec::profile)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(TargetProfile.class)));
        assertThat(profiles).containsExactlyInAnyOrder(TargetProfile.values());
    }
}
