package io.healthmesh.ops;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One typed declaration: the reader, the messages and the docs take the key, default and range from it. */
class SettingTest {

    private static final Setting<Integer> MAX = Setting.integer("max.in.flight", 1_000, 1, 100_000, "Probes at once.");
    private static final Setting<Integer> PORT = Setting.integer("http.port", 8080, 0, 65_535, "Port.")
            .noting("0 = any free port");
    private static final Setting<String> SERVERS = Setting.required("bootstrap.servers", "host:port", "Kafka.");
    private static final Setting<String> MODE = Setting.oneOf("mode", "a", List.of("a", "b"), "Mode.");
    private static final Setting<Boolean> ON = Setting.bool("on", true, "Switch.");
    private static final Setting<String> NAME = Setting.matching("name", "x", Pattern.compile("[a-z]+"), "a-z",
            "Name.").and(n -> n.length() <= 3);
    private static final Setting<Integer> THREADS = Setting.integer("threads", 1, 1, 256, "Threads.")
            .documentedAs("<available processors>", null);
    private static final List<Setting<?>> ALL = List.of(MAX, PORT, SERVERS, MODE, ON, NAME, THREADS);

    @Test
    void absentSettingsTakeTheirDefaultAndTheDocsShowIt() {
        SettingsReader r = new SettingsReader("prober", Map.of("bootstrap.servers", "k:9092"), ALL);
        assertThat(r.get(MAX)).isEqualTo(1_000);
        assertThat(r.get(MODE)).isEqualTo("a");
        assertThat(r.get(ON)).isTrue();
        assertThat(r.get(THREADS, 7)).as("a default computed at start").isEqualTo(7);
        assertThat(r.get(SERVERS)).isEqualTo("k:9092");
        r.finish();
        assertThat(MAX.defaultValue()).isEqualTo("1000");
        assertThat(THREADS.defaultValue()).isEqualTo("<available processors>");
        assertThat(SERVERS.defaultValue()).isNull();
        assertThat(PORT.range()).isEqualTo("0..65535 (0 = any free port)");
        assertThat(PORT.expected()).isEqualTo("0..65535");
    }

    @Test
    void givenValuesAreTrimmedAndParsed() {
        SettingsReader r = new SettingsReader("prober", Map.of("bootstrap.servers", "k:9092", "max.in.flight", " 42 ",
                "on", "FALSE", "mode", "b", "name", "abc"), ALL);
        assertThat(r.get(MAX)).isEqualTo(42);
        assertThat(r.get(ON)).isFalse();
        assertThat(r.get(MODE)).isEqualTo("b");
        assertThat(r.get(NAME)).isEqualTo("abc");
        r.finish();
    }

    @Test
    void everyBadValueIsReportedWithTheDeclaredExpectation() {
        SettingsReader r = new SettingsReader("prober", Map.of("max.in.flight", "0", "http.port", "x", "mode", "c",
                "on", "yes", "name", "abcd", "bootstrap.servers", ""), ALL);
        assertThat(r.get(MAX)).as("the default stands in").isEqualTo(1_000);
        r.get(PORT);
        r.get(MODE);
        r.get(ON);
        r.get(NAME);
        r.get(SERVERS);
        assertThatThrownBy(r::finish).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("max.in.flight: 0 (expected: 1..100000)")
                .hasMessageContaining("http.port: x (expected: 0..65535)")
                .hasMessageContaining("mode: c (expected: a or b)")
                .hasMessageContaining("on: yes (expected: true or false)")
                .hasMessageContaining("name: abcd (expected: a-z)")
                .hasMessageContaining("bootstrap.servers: missing (expected: a value, this setting is required)");
    }

    @Test
    void aSharedParserReadsAPlainMapWithTheSameMessages() {
        assertThat(MAX.readFrom(Map.of())).isEqualTo(1_000);
        assertThat(MAX.readFrom(Map.of("max.in.flight", "7"))).isEqualTo(7);
        assertThatThrownBy(() -> MAX.readFrom(Map.of("max.in.flight", "100001")))
                .hasMessage("max.in.flight: 100001 (expected: 1..100000)");
        assertThatThrownBy(() -> MAX.readFrom(Map.of("max.in.flight", "")))
                .hasMessage("max.in.flight: \"\" (expected: 1..100000)");
    }
}
