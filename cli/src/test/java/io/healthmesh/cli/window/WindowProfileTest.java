package io.healthmesh.cli.window;

import io.healthmesh.cli.CliRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code healthmesh window --profile P} prints each document's worked example exactly (docs/PROFILES.md). */
class WindowProfileTest {

    @Test
    void clbPrints16sAnd13s() {
        CliRun run = CliRun.of("window", "--profile", "TENCENT_CLB");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(
                "TENCENT_CLB, worked example (000 lines 82-86): 16 s to UNHEALTHY, 13 s to HEALTHY with 1 s answers",
                "  to UNHEALTHY: 16 s     timeout x unhealthyThreshold + interval x (unhealthyThreshold - 1) = 2 s x 3 + 5 s x 2 = 16 s",
                "  to HEALTHY:   13 s     responseTime x healthyThreshold + interval x (healthyThreshold - 1) = 1 s x 3 + 5 s x 2 = 13 s",
                "  to UNHEALTHY: 10 s     interval x (unhealthyThreshold - 1) = 5 s x 2 = 10 s");
    }

    @Test
    void edgeOnePrints75sAnd63sForEveryKind() {
        CliRun run = CliRun.of("window", "--profile", "TENCENT_EDGEONE");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("TCP  interval 30 s, timeout 5 s, healthyThreshold 3, unhealthyThreshold 3 "
                        + "(fixed delay under TENCENT_EDGEONE)",
                "= 5 s x 3 + 30 s x 2 = 75 s", "= 1 s x 3 + 30 s x 2 = 63 s");
        assertThat(run.out().split("= 75 s \\(", -1)).hasSize(3);
    }

    @Test
    void gaPrints13sAnd7sWithItsFixed3sTimeout() {
        CliRun run = CliRun.of("window", "--profile", "ALIBABA_GA");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("interval 2 s, timeout 3 s, healthyThreshold 3, unhealthyThreshold 3",
                "= 3 s x 3 + 2 s x 2 = 13 s", "= 1 s x 3 + 2 s x 2 = 7 s");
    }

    @Test
    void flagsTakeTheProfilesDefaultsAndRanges() {
        CliRun edge = CliRun.of("window", "--profile", "TENCENT_EDGEONE", "--protocol", "HTTP");
        assertThat(edge.exitCode()).isZero();
        assertThat(edge.out()).contains("interval 30 s, timeout 5 s, healthyThreshold 3, unhealthyThreshold 2");
        CliRun ga = CliRun.of("window", "--profile", "ALIBABA_GA", "--interval", "20s", "--timeout", "2s");
        assertThat(ga.exitCode()).isEqualTo(2);
        assertThat(ga.err()).contains("--timeout (ms): 2000 (expected: 3000 under ALIBABA_GA)");
        CliRun gaLong = CliRun.of("window", "--profile", "ALIBABA_GA", "--interval", "60s");
        assertThat(gaLong.err()).contains("--interval (ms): 60000 (expected: 1000..50000 under ALIBABA_GA)");
    }

    @Test
    void nlbHasNoExampleAndUsesGenericDefaults() {
        CliRun run = CliRun.of("window", "--profile", "ALIBABA_NLB");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("interval 5 s, timeout 2 s, healthyThreshold 3, unhealthyThreshold 3");
    }
}
