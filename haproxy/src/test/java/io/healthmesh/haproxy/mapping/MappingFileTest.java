package io.healthmesh.haproxy.mapping;

import io.healthmesh.haproxy.runtime.RuntimeAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MappingFileTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryFieldAndAppliesTheDefaults() {
        HaproxyMapping m = MappingFile.parse("""
                instances:
                  - /run/haproxy/admin.sock
                  - 127.0.0.1:9999
                  - "[::1]:9998"
                backends:
                  - group: api
                    backend: be_api
                  - group: web
                    backend: be_web
                    serverName: "web-{id}"
                    weightLabel: haproxy.weight
                """);
        assertThat(m.instances()).containsExactly(new RuntimeAddress(Path.of("/run/haproxy/admin.sock"), null, 0),
                new RuntimeAddress(null, "127.0.0.1", 9999), new RuntimeAddress(null, "::1", 9998));
        assertThat(m.backends()).containsExactly(new BackendMapping("api", "be_api", "{id}", null),
                new BackendMapping("web", "be_web", "web-{id}", "haproxy.weight"));
    }

    @Test
    void everyProblemIsReportedAtOnceWithItsLineAndField() {
        assertThatThrownBy(() -> MappingFile.parse("""
                instances:
                  - run/haproxy.sock
                  - /a.sock
                  - /a.sock
                backends:
                  - group: api
                    backend: "be api"
                    serverName: "web"
                    colour: blue
                  - backend: be_web
                  - group: other
                    backend: be_web
                  - group: third
                    backend: be_web
                """))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2: instances[0]: run/haproxy.sock (expected: an absolute unix socket path,"
                        + " host:port or [IPv6]:port)")
                .hasMessageContaining("line 4: instances[2]: /a.sock (expected: an instance no other entry names)")
                .hasMessageContaining("line 7: backends[0].backend: be api (expected: 1-100 of [A-Za-z0-9_.:-]")
                .hasMessageContaining("line 8: backends[0].serverName: web (expected: {id} once")
                .hasMessageContaining("line 9: backends[0].colour: unknown field (expected: one of [backend, group,"
                        + " serverName, weightLabel])")
                .hasMessageContaining("line 10: backends[1].group: missing (expected: a value, this field is required)")
                .hasMessageContaining("line 14: backends[3].backend: be_web (expected: a backend no other entry names");
    }

    @Test
    void refusesUnknownTopFieldsEmptyListsAndNonYaml() {
        assertThatThrownBy(() -> MappingFile.parse("instances: []\nbackends: []\nextra: 1\n"))
                .hasMessageContaining("line 1: instances: [] (expected: a list of 1..16 Runtime API sockets)")
                .hasMessageContaining("line 2: backends: [] (expected: a list of 1..1000 backend mappings)")
                .hasMessageContaining("line 3: extra: unknown field (expected: one of [backends, instances])");
        assertThatThrownBy(() -> MappingFile.parse("instances: [\n"))
                .hasMessageStartingWith("mapping file: not YAML or JSON");
        assertThatThrownBy(() -> MappingFile.parse("- a\n"))
                .hasMessageContaining("(expected: a mapping with instances and backends)");
    }

    @Test
    void templatesNeedTheIdOnceAndAllowedCharacters() {
        String base = "instances: [/h.sock]\nbackends:\n  - {group: g, backend: b, serverName: '%s'}\n";
        assertThat(MappingFile.parse(base.formatted("hm-{id}")).backends().get(0).serverName()).isEqualTo("hm-{id}");
        assertThatThrownBy(() -> MappingFile.parse(base.formatted("{id}-{id}"))).hasMessageContaining("serverName");
        assertThatThrownBy(() -> MappingFile.parse(base.formatted("a b{id}"))).hasMessageContaining("serverName");
        assertThatThrownBy(() -> MappingFile.parse(base.formatted("x".repeat(33) + "{id}")))
                .hasMessageContaining("serverName");
    }

    @Test
    void aMissingFileSaysWhichSetting() throws Exception {
        assertThatThrownBy(() -> MappingFile.load(dir.resolve("none.yaml")))
                .hasMessageContaining("mapping.file: ").hasMessageContaining("(expected: an existing mapping file)");
        Path file = Files.writeString(dir.resolve("m.yaml"), "instances: [/h.sock]\nbackends: [{group: g, backend: b}]");
        assertThat(MappingFile.load(file).backends()).hasSize(1);
    }
}
