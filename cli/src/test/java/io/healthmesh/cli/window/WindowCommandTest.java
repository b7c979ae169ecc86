package io.healthmesh.cli.window;

import io.healthmesh.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code healthmesh window}: the SPEC 5 examples from flags, a file, and bad input. */
class WindowCommandTest {

    @Test
    void clb000FromFlags() {
        CliRun run = CliRun.of("window", "--protocol", "http", "--interval", "5s", "--timeout", "2s",
                "--healthy-threshold", "3", "--unhealthy-threshold", "3", "--response-time", "1s");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(
                "to UNHEALTHY: 16 s     timeout x unhealthyThreshold + interval x (unhealthyThreshold - 1)"
                        + " = 2 s x 3 + 5 s x 2 = 16 s",
                "to HEALTHY:   13 s     responseTime x healthyThreshold + interval x (healthyThreshold - 1)"
                        + " = 1 s x 3 + 5 s x 2 = 13 s");
    }

    @Test
    void edgeOne001FromFlags() {
        CliRun run = CliRun.of("window", "--interval", "30s", "--timeout", "5s");
        assertThat(run.out()).contains("to UNHEALTHY: 75 s");
    }

    @Test
    void layer4FromFlags() {
        CliRun run = CliRun.of("window", "--protocol", "TCP", "--interval", "2s", "--unhealthy-threshold", "4");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("L4, fixed rate",
                "to UNHEALTHY: 6 s      interval x (unhealthyThreshold - 1) = 2 s x 3 = 6 s after the first failing probe");
    }

    @Test
    void defaultsWithoutFlags() {
        CliRun run = CliRun.of("window");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("HTTP  interval 5 s, timeout 2 s, healthyThreshold 3, unhealthyThreshold 3");
    }

    @Test
    void everyTargetOfAFile() {
        CliRun run = CliRun.of("window", "-f", Path.of("..", "examples", "targets.yaml").toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("shop-web-1  HTTP", "shop-db-1  TCP", "dns-1  UDP", "gateway-1  ICMP");
    }

    @Test
    void invalidTimingIsBadInputWithTheRule() {
        CliRun run = CliRun.of("window", "--protocol", "TCP", "--interval", "1s", "--timeout", "2s",
                "--healthy-threshold", "11");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("error: the timing is not valid",
                "--timeout (ms): 2000 (expected: at most intervalMs = 1000)",
                "--healthy-threshold: 11 (expected: 1..10)");
    }

    @Test
    void invalidFileIsBadInputWithEveryError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("t.yaml"),
                "- {id: a, address: h, protocol: TCP, port: 0}\n- {id: b, address: h, protocol: TCP, weight: 101}\n");
        CliRun run = CliRun.of("window", "-f", file.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(file + ": target a: port: 0 (expected: 1..65535)",
                file + ": target b: weight: 101 (expected: 0..100)");
    }

    @Test
    void durationWithoutUnitIsBadUsage() {
        CliRun run = CliRun.of("window", "--interval", "5");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'5' (expected: a duration such as 500ms, 2s, 1.5s, 5m)")
                .contains("Usage: healthmesh window");
    }

    @Test
    void fileAndFlagsTogetherIsBadUsage() {
        CliRun run = CliRun.of("window", "-f", "x.yaml", "--interval", "5s");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive");
    }

    @Test
    void unknownFlagIsBadUsage() {
        CliRun run = CliRun.of("window", "--intervall", "5s");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option").contains("Usage: healthmesh window");
    }
}
