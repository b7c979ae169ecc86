package io.healthmesh.contract.target;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code targets apply} refuses what the workers refuse, with the same messages (SPEC section 9 bounds). */
class TargetBoundsTest {

    @Test
    void aSeventyThousandCharacterRegionIsRefusedBeforeAnythingIsSent() {
        TargetFileReader.Batch batch = TargetFileReader.readText("t.yaml",
                "- {id: a, address: 10.0.0.1, protocol: tcp, port: 80, regions: [" + "x".repeat(70_000) + "]}\n", false);
        assertThat(batch.valid()).isFalse();
        assertThat(batch.errors()).containsExactly("t.yaml: target a: regions: \"" + "x".repeat(40)
                + "...\" (70000 characters) (expected: 1-64 of [A-Za-z0-9._-])");
    }

    @Test
    void aDefinitionWithinEveryFieldBoundButOver16KiBEncodedIsRefused() {
        StringBuilder yaml = new StringBuilder("- id: big\n  address: 10.0.0.1\n  protocol: http\n  labels:\n");
        for (int i = 0; i < 32; i++) {
            yaml.append("    k").append(i).append("x".repeat(120)).append(": ").append("v".repeat(256)).append('\n');
        }
        yaml.append("  http:\n    method: GET\n    headers:\n");
        for (int i = 0; i < 8; i++) {
            yaml.append("      X-H").append(i).append(": ").append("h".repeat(1024)).append('\n');
        }
        TargetFileReader.Batch batch = TargetFileReader.readText("t.yaml", yaml.toString(), false);
        assertThat(batch.errors()).hasSize(1);
        assertThat(batch.errors().get(0)).matches("t\\.yaml: target big: definition: \\d+ bytes encoded "
                + "\\(expected: at most 16384\\)");
    }
}
