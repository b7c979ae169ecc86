package io.healthmesh.cli.roles;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.dnsfollow.DnsFollowConfig;
import io.healthmesh.haproxy.HaproxyConfig;
import io.healthmesh.notifier.NotifierConfig;
import io.healthmesh.ops.Setting;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.registry.RegistryConfig;
import io.healthmesh.status.StatusConfig;
import io.healthmesh.xds.XdsConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.assertj.core.api.SoftAssertions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every setting a role declares (its own, and the shared HTTP servers' keys it reads) is documented in docs/CONFIGURATION.md, in that role's section, with the default the
 * code uses: the declaration ({@link Setting}) is the source, the document must follow it.
 */
class SettingsDocumentedTest {

    static Stream<Arguments> roles() {
        return Stream.of(
                Arguments.of("Prober", ProberConfig.SETTINGS),
                Arguments.of("Aggregator", AggregatorConfig.SETTINGS),
                Arguments.of("Registry", RegistryConfig.SETTINGS),
                Arguments.of("Notifier", NotifierConfig.SETTINGS),
                Arguments.of("HAProxy driver", HaproxyConfig.SETTINGS),
                Arguments.of("Xds", XdsConfig.SETTINGS),
                Arguments.of("DNS", DnsFollowConfig.SETTINGS),
                Arguments.of("Status page", StatusConfig.SETTINGS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roles")
    void everySettingHasARowWithItsDefault(String role, List<Setting<?>> settings) throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "CONFIGURATION.md"), StandardCharsets.UTF_8);
        // a role's own keys are in its section; the HTTP servers' keys every worker shares have a section of their own
        String section = section(doc, role) + section(doc, "HTTP servers (workers)");

        assertThat(settings).extracting(Setting::key).doesNotHaveDuplicates();
        SoftAssertions soft = new SoftAssertions(); // every undocumented setting at once
        for (Setting<?> s : settings) {
            String row = "| `" + s.key() + "` | ";
            if (!section.contains(row)) {
                soft.fail("%s: no row for %s in docs/CONFIGURATION.md", role, s.key());
                continue;
            }
            String documented = section.substring(section.indexOf(row) + row.length()).split(" \\|", 2)[0];
            if (s.defaultValue() == null) {
                soft.assertThat(documented).as("%s: default of %s", role, s.key()).isIn("(required)", "(none)");
            } else if (s.defaultValue().isEmpty()) {
                soft.assertThat(documented).as("%s: default of %s", role, s.key()).isIn("(empty)", "(none)");
            } else {
                soft.assertThat(documented).as("%s: default of %s", role, s.key()).isEqualTo("`" + s.defaultValue() + "`");
            }
            soft.assertThat(s.doc()).as("%s: doc of %s", role, s.key()).isNotBlank();
        }
        soft.assertAll();
    }

    /** The text of {@code ## <role>} up to the next second-level heading. */
    private static String section(String doc, String role) {
        int start = doc.indexOf("\n## " + role + "\n");
        assertThat(start).as("docs/CONFIGURATION.md has a section '## %s'", role).isNotNegative();
        int end = doc.indexOf("\n## ", start + 1);
        return end < 0 ? doc.substring(start) : doc.substring(start, end);
    }
}
