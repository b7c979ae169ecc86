package io.healthmesh.cli.roles;

import io.healthmesh.cli.CliRun;
import io.healthmesh.cli.UntilStopped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad settings of the worker roles are bad input (exit 2) with every problem listed; no broker needed. */
class WorkerRoleTest {

    @Test
    void proberWithUnknownAndInvalidSettingsListsThemAll(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("prober.properties"),
                "bootstrap.servers=127.0.0.1:9092\nschema.registry.url=http://127.0.0.1:8081\n"
                        + "regoin=eu\nmax.in.flight=0\n");
        CliRun run = CliRun.of("prober", "--config", config.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("error: invalid prober settings").contains("regoin", "max.in.flight");
    }

    @Test
    void haproxyWithABadMappingFileListsItsProblemsWithTheSettings(@TempDir Path dir) throws IOException {
        Path mapping = Files.writeString(dir.resolve("mapping.yaml"),
                "instances: [relative.sock]\nbackends:\n  - {group: api, backend: be_api, weight: 3}\n");
        Path config = Files.writeString(dir.resolve("haproxy.properties"),
                "bootstrap.servers=127.0.0.1:9092\nschema.registry.url=http://127.0.0.1:8081\n"
                        + "mapping.file=" + mapping + "\nchanges.burst=0\n");
        CliRun run = CliRun.of("haproxy", "--config", config.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("error: invalid haproxy settings")
                .contains("changes.burst: 0 (expected: 1..100000)", "line 1: instances[0]: relative.sock",
                        "line 3: backends[0].weight: unknown field");
    }

    @Test
    void registryWithoutBootstrapServersIsBadInput(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("registry.properties"), "http.port=99999\n");
        CliRun run = CliRun.of("registry", "--config", config.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("bootstrap.servers: missing", "http.port: 99999 (expected: 0..65535)");
    }

    @Test
    void aggregatorWithInvalidSettingsIsBadInput(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("aggregator.properties"),
                "schema.registry.url=http://127.0.0.1:1\nstaleness.factor=0.5\ncolour=red\n");
        CliRun run = CliRun.of("aggregator", config.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("invalid aggregator settings", "colour", "staleness.factor", "bootstrap.servers");
    }

    @Test
    void notifierWithAnInvalidRouteFileListsEveryProblem(@TempDir Path dir) throws IOException {
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes:\n  - name: ops\n    type: pager\n    url: http://127.0.0.1:1/\n    minDuration: soon\n");
        Path config = Files.writeString(dir.resolve("notifier.properties"),
                "bootstrap.servers=127.0.0.1:9092\nschema.registry.url=http://127.0.0.1:8081\nroutes.file=" + routes
                        + "\nretry.max.ms=1\n");
        CliRun run = CliRun.of("notifier", config.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("invalid notifier settings",
                "routes[0].type: pager (expected: webhook, slack or alertmanager)",
                "routes[0].minDuration: soon (expected: a duration", "retry.max.ms: 1 (expected: 500..3600000)");
    }

    @Test
    void missingConfigFileIsBadInput() {
        CliRun run = CliRun.of("prober", "--config", "/nonexistent/prober.properties");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("config file not found: /nonexistent/prober.properties");
    }

    @Test
    void theSettingsFileMayBeGivenAsAnArgumentButOnlyOnce(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("registry.properties"), "http.port=-1\n");
        CliRun positional = CliRun.of("registry", config.toString());
        assertThat(positional.exitCode()).isEqualTo(2);
        assertThat(positional.err()).contains("http.port: -1 (expected: 0..65535)");
        CliRun twice = CliRun.of("registry", config.toString(), "--config", config.toString());
        assertThat(twice.exitCode()).isEqualTo(2);
        assertThat(twice.err()).contains("give the settings file once");
    }

    @Test
    void unknownFlagIsBadUsage() {
        CliRun run = CliRun.of("registry", "--port", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option", "Usage: healthmesh registry");
    }

    @Test
    void aBoundedRunClosesTheWorkerOnceAndSaysSo() throws Exception {
        AtomicInteger closes = new AtomicInteger();
        StringWriter out = new StringWriter();
        int code = UntilStopped.run(closes::incrementAndGet, Duration.ofMillis(50), new PrintWriter(out, true), "test");
        assertThat(code).isZero();
        assertThat(closes).hasValue(1);
        assertThat(out.toString()).contains("test: stopping", "test: stopped");
    }
}
