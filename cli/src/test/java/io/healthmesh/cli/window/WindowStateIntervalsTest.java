package io.healthmesh.cli.window;

import io.healthmesh.cli.CliRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code healthmesh window --fast-interval --down-interval}: the windows of BEHAVIOUR.md section 5b. */
class WindowStateIntervalsTest {

    @Test
    void layer4WithAFastAndADownInterval() {
        CliRun run = CliRun.of("window", "--protocol", "TCP", "--interval", "10s", "--timeout", "1s",
                "--fast-interval", "2s", "--down-interval", "60s");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(
                "to UNHEALTHY: 4 s      fastInterval x (unhealthyThreshold - 1) = 2 s x 2 = 4 s after the first"
                        + " failing probe (L4 fixed rate; the first failing probe starts up to 10 s after the failure)",
                "to HEALTHY:   4 s      fastInterval x (healthyThreshold - 1) = 2 s x 2 = 4 s after the first"
                        + " succeeding probe (L4 fixed rate; the first succeeding probe starts up to 60 s after the"
                        + " recovery (downInterval))",
                "fastInterval 2 s, downInterval 60 s",
                "from a failure to UNHEALTHY:  at most 15 s (10 s until the first failing probe + 4 s + the last probe's"
                        + " timeout 1 s)",
                "from a recovery to HEALTHY:   at most 64 s (60 s until the first succeeding probe + 4 s + the last"
                        + " probe's response time 0 s)");
    }

    @Test
    void layer7WithAFastInterval() {
        CliRun run = CliRun.of("window", "--protocol", "HTTP", "--interval", "5s", "--timeout", "2s",
                "--fast-interval", "1s", "--response-time", "1s");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(
                "to UNHEALTHY: 8 s      timeout x unhealthyThreshold + fastInterval x (unhealthyThreshold - 1)"
                        + " = 2 s x 3 + 1 s x 2 = 8 s",
                "to HEALTHY:   5 s      responseTime x healthyThreshold + fastInterval x (healthyThreshold - 1)"
                        + " = 1 s x 3 + 1 s x 2 = 5 s",
                "from a failure to UNHEALTHY:  at most 14 s (6 s until the first failing probe + 8 s)",
                "from a recovery to HEALTHY:   at most 12 s (7 s until the first succeeding probe + 5 s)");
    }

    @Test
    void withoutThemTheOutputIsAsBefore() {
        CliRun run = CliRun.of("window", "--protocol", "TCP", "--interval", "2s", "--unhealthy-threshold", "4");
        assertThat(run.out()).doesNotContain("fastInterval", "from a failure");
    }

    @Test
    void aProductProfileRefusesThem() {
        CliRun run = CliRun.of("window", "--profile", "TENCENT_CLB", "--protocol", "TCP", "--fast-interval", "5s");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--fast-interval (ms): 5000 (expected: absent under TENCENT_CLB: Tencent Cloud"
                + " CLB has one interval for every state)");
    }

    @Test
    void aFastIntervalBelowAFixedRateTimeoutIsRefused() {
        CliRun run = CliRun.of("window", "--protocol", "TCP", "--interval", "10s", "--timeout", "2s",
                "--fast-interval", "1s");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--fast-interval (ms): 1000 (expected: at least timeoutMs = 2000");
    }
}
