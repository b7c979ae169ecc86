package io.healthmesh.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docker/prometheus}: the alerting rules pass {@code promtool check rules} and their unit tests
 * ({@code promtool test rules}: each alert fires, and only when it should), and the compose stack's Prometheus
 * configuration passes {@code promtool check config}; {@code docker/grafana}'s dashboard is valid JSON. Needs
 * Debian's {@code prometheus} package: skipped without it
 * on a developer machine, a failure in CI ({@code CI=true}; {@code .ci/run} installs it).
 */
@Timeout(120)
class PrometheusRulesTest {

    private static final Path DIR = Path.of(System.getProperty("healthmesh.root", ".."), "docker", "prometheus");
    private static final Path PROMTOOL = Path.of(System.getProperty("healthmesh.promtool", "/usr/bin/promtool"));

    @BeforeAll
    static void promtoolInstalled() {
        if (!Files.isExecutable(PROMTOOL)) {
            String message = PROMTOOL + " is missing (apt-get install prometheus)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(message + "; CI must install it (.ci/run)");
            }
            Assumptions.abort(message);
        }
        assertThat(DIR.resolve("healthmesh-rules.yaml")).exists();
    }

    @Test
    void theRulesAreValid() throws Exception {
        assertPromtool("check", "rules", "healthmesh-rules.yaml");
    }

    @Test
    void theRulesFireWhenTheirUnitTestsSayTheyShould() throws Exception {
        assertPromtool("test", "rules", "healthmesh-rules.test.yaml");
    }

    @Test
    void theComposeStacksPrometheusConfigurationIsValid() throws Exception {
        assertPromtool("check", "config", "prometheus.yml");
    }

    @Test
    void theRulesReferenceTheGaugesTheAggregatorExports() throws IOException {
        String rules = Files.readString(DIR.resolve("healthmesh-rules.yaml"));
        assertThat(rules).contains("healthmesh_group_fail_open", "healthmesh_group_unhealthy",
                "healthmesh_region_stale_targets", "healthmesh_aggregator_rejected_records_total",
                "healthmesh_prober_rejected_definitions_total", "healthmesh_prober_scheduling_lag_seconds_bucket");
    }

    @Test
    void theGrafanaDashboardIsJsonWithAQueryInEveryPanel() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DIR.resolveSibling("grafana")
                .resolve("healthmesh-dashboard.json").toFile());
        assertThat(dashboard.path("uid").asText()).isEqualTo("healthmesh");
        int queries = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("targets")).as("queries of panel %s", panel.path("title")).isNotEmpty();
                for (JsonNode target : panel.path("targets")) {
                    assertThat(target.path("expr").asText()).as("expr in %s", panel.path("title")).isNotBlank();
                    queries++;
                }
            }
        }
        assertThat(queries).isGreaterThan(20);
        assertThat(dashboard.toString()).contains("healthmesh_group_fail_open", "healthmesh_prober_probes_total",
                "healthmesh_aggregator_rejected_records_total", "healthmesh_registry_requests_total");
    }

    private static void assertPromtool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PROMTOOL.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        assertThat(process.exitValue()).as("%s exit code; output:%n%s", command,
                new String(output, StandardCharsets.UTF_8)).isZero();
    }
}
