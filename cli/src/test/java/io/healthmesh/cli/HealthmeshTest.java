package io.healthmesh.cli;

import io.healthmesh.ops.BuildInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Exit codes and usage of the top-level command. */
class HealthmeshTest {

    @Test
    void noSubcommandIsBadUsage() {
        CliRun run = CliRun.of();
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing subcommand").contains("Usage: healthmesh");
    }

    @Test
    void unknownSubcommandIsBadUsage() {
        CliRun run = CliRun.of("frobnicate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unmatched argument").contains("Usage: healthmesh");
    }

    @Test
    void unknownFlagIsBadUsageWithTheSubcommandsUsage() {
        CliRun run = CliRun.of("targets", "list", "--frobnicate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--frobnicate'").contains("Usage: healthmesh targets list");
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "targets apply -f x.yaml", "targets list", "targets get x", "targets delete x",
            "watch", "window", "prober", "aggregator", "notifier", "haproxy", "registry", "xds"})
    void everySubcommandRefusesAnUnknownFlagWithItsUsage(String commandLine) {
        List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
        args.add("--no-such-flag");
        CliRun run = CliRun.of(args.toArray(String[]::new));
        String command = commandLine.replaceAll(" (-f )?x(\\.yaml)?$", "");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--no-such-flag'").contains("Usage: healthmesh " + command);
    }

    @Test
    void helpListsEverySubcommandAndTheExitCodes() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("demo", "targets", "watch", "window", "prober", "aggregator", "notifier",
                "haproxy", "registry", "xds", "Exit codes:", "2   bad usage or bad input");
    }

    @Test
    void versionPrints() {
        CliRun run = CliRun.of("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("healthmesh " + BuildInfo.current().version() + " (commit ");
    }

    @Test
    void versionCommandPrintsVersionCommitAndBuildTime() {
        BuildInfo build = BuildInfo.current();
        CliRun text = CliRun.of("version");
        assertThat(text.exitCode()).isZero();
        assertThat(text.out().lines()).containsExactly("healthmesh " + build.version(), "commit     " + build.commit(),
                "built      " + build.builtAt());
        CliRun json = CliRun.of("version", "--json");
        assertThat(json.exitCode()).isZero();
        assertThat(json.out().strip()).isEqualTo("{\"version\":\"" + build.version() + "\",\"commit\":\""
                + build.commit() + "\",\"built\":\"" + build.builtAt() + "\"}");
        assertThat(build.version()).isNotEqualTo(BuildInfo.UNKNOWN);
    }

    @Test
    void missingCommandConfigIsBadInput() {
        CliRun run = CliRun.of("targets", "delete", "x", "--command-config", "/nonexistent/client.properties");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("error: --command-config: /nonexistent/client.properties: file not found"
                + System.lineSeparator());
    }

    @Test
    void unreachableClusterIsARuntimeFailureOnOneLine(@TempDir Path dir) throws IOException {
        // nothing listens on port 1; short client timeouts keep the test fast
        Path config = Files.writeString(dir.resolve("client.properties"),
                "default.api.timeout.ms=1500\nrequest.timeout.ms=500\nsocket.connection.setup.timeout.ms=200\n");
        CliRun quiet = CliRun.of("targets", "list", "--bootstrap-server", "127.0.0.1:1",
                "--command-config", config.toString());
        assertThat(quiet.exitCode()).isEqualTo(1);
        assertThat(quiet.err().lines().toList()).hasSize(2);
        assertThat(quiet.err()).startsWith("error: cannot reach Kafka at 127.0.0.1:1")
                .contains("(run with --verbose for the stack trace)");

        CliRun verbose = CliRun.of("targets", "list", "--bootstrap-server", "127.0.0.1:1",
                "--command-config", config.toString(), "--verbose");
        assertThat(verbose.exitCode()).isEqualTo(1);
        assertThat(verbose.err()).contains("at io.healthmesh.cli.targets.TargetTopic");
    }

    @Test
    void oneLineTakesTheFirstLineOfTheInnermostMessage() {
        Exception e = new RuntimeException(null, new IllegalStateException("first\nsecond"));
        assertThat(Healthmesh.oneLine(e)).isEqualTo("first");
    }
}
