package io.healthmesh.notifier;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Keeps the notifier's section of docs/CONFIGURATION.md true to {@link NotifierConfig#SETTINGS}. */
class ConfigurationDocTest {

    private static String section() throws IOException {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        String doc = Files.readString(module.resolve("..").resolve("docs").resolve("CONFIGURATION.md"));
        int start = doc.indexOf("\n## Notifier\n");
        assertThat(start).as("a '## Notifier' section").isNotNegative();
        int end = doc.indexOf("\n## ", start + 1);
        return end < 0 ? doc.substring(start) : doc.substring(start, end);
    }

    @Test
    void everySettingIsDocumentedWithItsDefault() throws IOException {
        String section = section();
        for (io.healthmesh.ops.Setting<?> s : NotifierConfig.SETTINGS) {
            assertThat(section).as("row of %s", s.key()).contains("| `" + s.key() + "` |");
            if (s.defaultValue() != null) {
                assertThat(section).as("default of %s", s.key())
                        .contains("| `" + s.key() + "` | `" + s.defaultValue() + "` |");
            }
        }
    }

    @Test
    void everyRouteFieldIsDocumented() throws IOException {
        String section = section();
        for (String field : new String[] {"name", "type", "url", "headers", "timeout", "minDuration", "repeat",
                "resolved", "filter.groups", "filter.labels", "filter.statuses", "filter.failOpen"}) {
            assertThat(section).as("row of %s", field).contains("| `" + field + "` |");
        }
    }
}
