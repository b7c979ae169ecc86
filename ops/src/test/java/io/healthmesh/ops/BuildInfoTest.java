package io.healthmesh.ops;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The build's identity as the build wrote it, and its gauge on every metrics exposition. */
class BuildInfoTest {

    @Test
    void theBuildWroteTheProjectVersionACommitAndATime() throws IOException {
        BuildInfo build = BuildInfo.current();
        assertThat(build.version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        // the version this module's pom inherits (tests run in the module's directory)
        assertThat(Files.readString(Path.of("pom.xml"))).contains("<version>" + build.version() + "</version>");
        assertThat(build.commit()).matches("[0-9a-f]{40}|unknown");
        assertThat(build.builtAt()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
    }

    @Test
    void missingOrUnfilteredValuesReadUnknown() {
        Properties p = new Properties();
        p.setProperty("version", "${project.version}");
        p.setProperty("commit", " ");
        BuildInfo build = BuildInfo.from(p);
        assertThat(build).isEqualTo(new BuildInfo("unknown", "unknown", "unknown"));
        assertThat(build.shortCommit()).isEqualTo("unknown");
    }

    @Test
    void theLineShowsTheShortCommit() {
        BuildInfo build = new BuildInfo("0.2.0", "1e687b29ab41b02e3668704fae5f5908f27a9f93", "2026-12-06T04:00:00Z");
        assertThat(build.line()).isEqualTo("healthmesh 0.2.0 (commit 1e687b29ab41, built 2026-12-06T04:00:00Z)");
    }

    @Test
    void everyExpositionCarriesTheBuildGaugeBesideTheRegistrysMetrics() {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("healthmesh_test_things").help("things").register(registry).inc();
        String text = new String(MetricsText.scrape(registry), StandardCharsets.UTF_8);
        BuildInfo build = BuildInfo.current();
        assertThat(text).contains("healthmesh_test_things_total 1.0")
                .contains("# TYPE healthmesh_build_info gauge")
                .contains("healthmesh_build_info{commit=\"" + build.shortCommit() + "\",version=\"" + build.version()
                        + "\"} 1\n");
    }
}
