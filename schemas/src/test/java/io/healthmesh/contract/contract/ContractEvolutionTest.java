package io.healthmesh.contract.contract;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.apache.avro.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's rules (STYLE.md 9): every type and field has a doc, and the records evolve
 * compatibly. {@code src/test/resources/contract-baseline/} holds the records as first released;
 * the current schemas must be FULL_TRANSITIVE-compatible with them in the registry, and every
 * field added since must carry a default.
 *
 * <p>One change is allowed beyond that, and only to the enums named in {@link #APPEND_ONLY_ENUMS}: symbols appended
 * at the end (a new protocol). A reader of an older version cannot read a record that carries a symbol it does not
 * know, so such a record is refused by it (a definition goes to the rejected topic, like any undecodable one): the
 * readers (aggregator, status, probers) are upgraded before the first definition with a new protocol is written.
 * The check widens the baseline's enum to the current symbols after proving that they only grew at the end, then
 * holds every other change to FULL_TRANSITIVE.
 */
class ContractEvolutionTest {

    /** Enums that may grow by appending symbols; every other enum is held to FULL_TRANSITIVE like the records. */
    static final Set<String> APPEND_ONLY_ENUMS = Set.of("io.healthmesh.schema.Protocol");

    static Stream<Schema> records() {
        return Stream.of(TargetDefinition.getClassSchema(), ProbeResult.getClassSchema(),
                TargetHealth.getClassSchema(), GroupHealth.getClassSchema());
    }

    @ParameterizedTest
    @MethodSource("records")
    void everyTypeAndFieldHasADoc(Schema record) {
        List<String> undocumented = new ArrayList<>();
        collectUndocumented(record, new HashSet<>(), undocumented);
        assertThat(undocumented).as("types and fields without a doc").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("records")
    void theCurrentSchemaIsFullyCompatibleWithTheBaseline(Schema record) throws IOException {
        Schema baseline = baseline(record.getName());
        SchemaRegistry registry = SchemaRegistry.inMemory();
        registry.setGlobalLevel(CompatibilityLevel.FULL_TRANSITIVE);
        String subject = record.getName() + "-value";
        registry.register(subject, withAppendedSymbols(baseline, record).toString());
        // a 409 here names the incompatibility
        registry.register(subject, record.toString());
        assertThat(registry.testCompatibility(subject, null, record.toString())).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("records")
    void everyFieldAddedSinceTheBaselineHasADefault(Schema record) throws IOException {
        List<String> missing = new ArrayList<>();
        collectAddedWithoutDefault(baseline(record.getName()), record, record.getName(), missing);
        assertThat(missing).as("fields added since the baseline without a default").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("records")
    void appendOnlyEnumsKeepEverySymbolInItsPlace(Schema record) throws IOException {
        Map<String, Schema> before = enums(baseline(record.getName()));
        Map<String, Schema> now = enums(record);
        for (String name : APPEND_ONLY_ENUMS) {
            if (before.containsKey(name)) {
                List<String> old = before.get(name).getEnumSymbols();
                assertThat(now.get(name).getEnumSymbols().subList(0, old.size())).as(name).isEqualTo(old);
            }
        }
    }

    /** The baseline with each append-only enum's symbols replaced by the current ones. */
    private static Schema withAppendedSymbols(Schema baseline, Schema current) throws IOException {
        Map<String, Schema> now = enums(current);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode tree = json.readTree(baseline.toString());
        widen(tree, now, json);
        return SchemaRegistry.parse(json.writeValueAsString(tree));
    }

    private static void widen(com.fasterxml.jackson.databind.JsonNode node, Map<String, Schema> now,
                              com.fasterxml.jackson.databind.ObjectMapper json) {
        if (node.isObject() && "enum".equals(node.path("type").asText())) {
            String name = node.path("namespace").asText("io.healthmesh.schema") + "." + node.path("name").asText();
            if (APPEND_ONLY_ENUMS.contains(name) && now.containsKey(name)) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) node).set("symbols",
                        json.valueToTree(now.get(name).getEnumSymbols()));
            }
        }
        node.forEach(child -> widen(child, now, json));
    }

    private static Map<String, Schema> enums(Schema schema) {
        Map<String, Schema> out = new java.util.HashMap<>();
        collectEnums(schema, new HashSet<>(), out);
        return out;
    }

    private static void collectEnums(Schema schema, Set<String> seen, Map<String, Schema> out) {
        switch (schema.getType()) {
            case RECORD -> {
                if (seen.add(schema.getFullName())) {
                    schema.getFields().forEach(f -> collectEnums(f.schema(), seen, out));
                }
            }
            case ENUM -> out.put(schema.getFullName(), schema);
            case UNION -> schema.getTypes().forEach(t -> collectEnums(t, seen, out));
            case ARRAY -> collectEnums(schema.getElementType(), seen, out);
            case MAP -> collectEnums(schema.getValueType(), seen, out);
            default -> {
                // primitives hold no enum
            }
        }
    }

    private static Schema baseline(String name) throws IOException {
        try (InputStream in = ContractEvolutionTest.class.getResourceAsStream("/contract-baseline/" + name + ".avsc")) {
            assertThat(in).as("baseline of " + name).isNotNull();
            return SchemaRegistry.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static void collectUndocumented(Schema schema, Set<String> seen, List<String> out) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                if (isBlank(schema.getDoc())) {
                    out.add(schema.getFullName());
                }
                for (Schema.Field field : schema.getFields()) {
                    if (isBlank(field.doc())) {
                        out.add(schema.getFullName() + "." + field.name());
                    }
                    collectUndocumented(field.schema(), seen, out);
                }
            }
            case ENUM -> {
                if (seen.add(schema.getFullName()) && isBlank(schema.getDoc())) {
                    out.add(schema.getFullName());
                }
            }
            case UNION -> schema.getTypes().forEach(t -> collectUndocumented(t, seen, out));
            case ARRAY -> collectUndocumented(schema.getElementType(), seen, out);
            case MAP -> collectUndocumented(schema.getValueType(), seen, out);
            default -> {
                // primitives carry no doc
            }
        }
    }

    /** Walks old and new side by side (records nested directly, in unions, arrays and maps). */
    private static void collectAddedWithoutDefault(Schema old, Schema current, String path, List<String> out) {
        Schema oldRecord = recordIn(old);
        Schema currentRecord = recordIn(current);
        if (oldRecord == null || currentRecord == null) {
            return;
        }
        for (Schema.Field field : currentRecord.getFields()) {
            Schema.Field before = oldRecord.getField(field.name());
            if (before == null) {
                if (!field.hasDefaultValue()) {
                    out.add(path + "." + field.name());
                }
            } else {
                collectAddedWithoutDefault(before.schema(), field.schema(), path + "." + field.name(), out);
            }
        }
    }

    private static Schema recordIn(Schema schema) {
        return switch (schema.getType()) {
            case RECORD -> schema;
            case UNION -> schema.getTypes().stream().map(ContractEvolutionTest::recordIn).filter(s -> s != null).findFirst().orElse(null);
            case ARRAY -> recordIn(schema.getElementType());
            case MAP -> recordIn(schema.getValueType());
            default -> null;
        };
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }
}
