package io.healthmesh.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TopicNamesTest {

    private final TopicNames names = new TopicNames();

    @Test
    void namesStartWithTheBaseAndNeverRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String name = names.unique("probe-results");
            assertThat(name).matches("probe-results-\\d+-[0-9a-f]{6}");
            assertThat(seen.add(name)).as("repeated %s", name).isTrue();
        }
    }

    @Test
    void longestAllowedBaseStaysWithinKafkasLimit() {
        String base = "t".repeat(TopicNames.MAX_LENGTH - 27);

        assertThat(names.unique(base)).hasSizeLessThanOrEqualTo(TopicNames.MAX_LENGTH);
        assertThatThrownBy(() -> names.unique(base + "t"))
                .hasMessage("base: 223 characters (expected: 1..222)");
    }

    @Test
    void rejectsCharactersKafkaRefuses() {
        assertThatThrownBy(() -> names.unique("a topic")).hasMessage("base: 'a topic' (expected: letters, digits, '.', '_' or '-')");
        assertThatThrownBy(() -> names.unique("")).hasMessage("base: '' (expected: letters, digits, '.', '_' or '-')");
    }
}
