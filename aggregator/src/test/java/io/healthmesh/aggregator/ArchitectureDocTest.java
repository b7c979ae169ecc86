package io.healthmesh.aggregator;

import io.healthmesh.aggregator.topology.AggregatorTopology;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Keeps the aggregator's sections of docs/ARCHITECTURE.md and docs/CONFIGURATION.md true to the code. */
class ArchitectureDocTest {

    private static final String MARKER = "<!-- aggregator-topology:";

    private static String doc(String name) throws IOException {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return Files.readString(module.resolve("..").resolve("docs").resolve(name));
    }

    /** The text of the {@code ## Aggregator} section, up to the next second-level heading. */
    private static String aggregatorSection(String doc) {
        int start = doc.indexOf("\n## Aggregator\n");
        assertThat(start).as("a '## Aggregator' section").isNotNegative();
        int end = doc.indexOf("\n## ", start + 1);
        return end < 0 ? doc.substring(start) : doc.substring(start, end);
    }

    @Test
    void theDocumentedTopologyIsWhatTheFactoryBuilds() throws IOException {
        String section = aggregatorSection(doc("ARCHITECTURE.md"));
        int marker = section.indexOf(MARKER);
        assertThat(marker).as("the topology marker comment").isNotNegative();
        int open = section.indexOf("```text\n", marker) + "```text\n".length();
        int close = section.indexOf("\n```", open);
        String documented = section.substring(open, close);
        AggregatorConfig defaults = AggregatorConfig.from(Map.of("bootstrap.servers", "unused:9092",
                "schema.registry.url", "mem://architecture-doc"));
        String actual = AggregatorTopology.build(defaults, defaults.serdeConfig()).describe().toString();
        assertThat(documented.strip())
                .as("docs/ARCHITECTURE.md '## Aggregator' topology block; paste the new describe() output")
                .isEqualTo(actual.strip());
    }
}
