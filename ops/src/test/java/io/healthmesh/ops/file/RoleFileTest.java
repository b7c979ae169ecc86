package io.healthmesh.ops.file;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checks every role file applies, and every problem reported at once. */
class RoleFileTest {

    @Test
    void collectsEveryProblemAndReportsThemTogether() {
        JsonNode root = RoleFile.parse("a: ' '\nb: [1]\nc: ok\nd: x\n", "route file");
        RoleFile doc = new RoleFile("route file");
        assertThat(doc.text(root, "a", "top", "fallback")).isEqualTo("fallback");
        assertThat(doc.text(root, "b", "top", null)).isNull();
        assertThat(doc.text(root, "c", "top", null)).isEqualTo("ok");
        assertThat(doc.text(root, "missing", "top", null)).isNull();
        assertThat(doc.text(root, "optional", "top", "default")).isEqualTo("default");
        doc.unknownFields(root, Set.of("a", "b", "c"), "top.");
        assertThat(doc.problems()).containsExactly(
                "top.a:   (expected: a non-empty text)",
                "top.b: [1] (expected: a non-empty text)",
                "top.missing: missing (expected: a value, this field is required)",
                "top.d: unknown field (expected: one of [a, b, c])");
        assertThatThrownBy(doc::requireValid).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid route file: " + String.join("; ", doc.problems()));
    }

    @Test
    void aFileWithoutProblemsIsValid() {
        RoleFile doc = new RoleFile("mapping file");
        doc.requireValid();
        assertThat(doc.problems()).isEmpty();
    }

    @Test
    void showsValuesShortAndAbsentOnesAsMissing() {
        assertThat(RoleFile.shown(null)).isEqualTo("missing");
        assertThat(RoleFile.shown(RoleFile.parse("v: null", "f").get("v"))).isEqualTo("missing");
        assertThat(RoleFile.shown(RoleFile.parse("v: " + "x".repeat(100), "f").get("v")))
                .isEqualTo("x".repeat(80) + "...");
    }

    @Test
    void textThatIsNotYamlNamesTheLine() {
        assertThatThrownBy(() -> RoleFile.parse("a: 1\nb: [unclosed\n", "mapping file"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("mapping file: not YAML or JSON (")
                .hasMessageContaining(" at line ");
    }

    @Test
    void aMissingFileNamesItsSetting(@TempDir Path dir) throws Exception {
        Path absent = dir.resolve("absent.yaml");
        assertThatThrownBy(() -> RoleFile.readText(absent, "mapping.file", "mapping file"))
                .hasMessage("mapping.file: " + absent + " (expected: an existing mapping file)");
        Path present = Files.writeString(dir.resolve("present.yaml"), "a: 1\n");
        assertThat(RoleFile.readText(present, "mapping.file", "mapping file")).isEqualTo("a: 1\n");
    }
}
