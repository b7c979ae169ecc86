package io.healthmesh.contract.contract;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's rules (STYLE.md 9): every type and field has a doc, and the records evolve
 * compatibly. {@code src/test/resources/contract-baseline/} holds the records as first released;
 * the current schemas must be FULL_TRANSITIVE-compatible with them in the registry, and every
 * field added since must carry a default.
 *
 * <p>One exception, and only one: a {@code Protocol} symbol appended since the baseline. No reader of the
 * baseline can read it (an Avro reader maps an unknown symbol to its enum's default, and the baseline has none;
 * a default would have to be a real protocol, which a reader would then probe in place of the unknown one), so
 * those symbols are held to BACKWARD_TRANSITIVE (every new reader reads every old record) and to being appended,
 * and the rest of the contract to FULL_TRANSITIVE with the baseline's enum given the new symbols. An older worker
 * rejects a record with a new protocol as undecodable (counted, sent to the rejected topic): workers are upgraded
 * before such definitions are written (docs/REGISTRY.md).
 */
class ContractEvolutionTest {

    static Stream<Schema> records() {
        return Stream.of(TargetDefinition.getClassSchema(), ProbeResult.getClassSchema(),
                TargetHealth.getClassSchema(), GroupHealth.getClassSchema(),
                GroupPolicy.getClassSchema(), Maintenance.getClassSchema());
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
        Schema baseline = withCurrentProtocols(baseline(record.getName()));
        SchemaRegistry registry = SchemaRegistry.inMemory();
        registry.setGlobalLevel(CompatibilityLevel.FULL_TRANSITIVE);
        String subject = record.getName() + "-value";
        registry.register(subject, baseline.toString());
        // a 409 here names the incompatibility
        registry.register(subject, record.toString());
        assertThat(registry.testCompatibility(subject, null, record.toString())).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("records")
    void theCurrentSchemaReadsEveryBaselineRecord(Schema record) throws IOException {
        SchemaRegistry registry = SchemaRegistry.inMemory();
        registry.setGlobalLevel(CompatibilityLevel.BACKWARD_TRANSITIVE);
        String subject = record.getName() + "-value";
        registry.register(subject, baseline(record.getName()).toString());
        registry.register(subject, record.toString());
    }

    @Test
    void protocolSymbolsAreOnlyAppended() throws IOException {
        List<String> released = protocolOf(baseline("TargetDefinition")).getEnumSymbols();
        List<String> current = protocolOf(TargetDefinition.getClassSchema()).getEnumSymbols();
        assertThat(current.subList(0, released.size())).isEqualTo(released);
    }

    /** {@code baseline} with the current Protocol symbols: the one evolution FULL_TRANSITIVE cannot express. */
    private static Schema withCurrentProtocols(Schema baseline) {
        Schema protocol = protocolOf(baseline);
        if (protocol == null) {
            return baseline;
        }
        String released = symbolsJson(protocol.getEnumSymbols());
        String text = baseline.toString();
        assertThat(text).contains(released);
        return SchemaRegistry.parse(text.replace(released,
                symbolsJson(protocolOf(TargetDefinition.getClassSchema()).getEnumSymbols())));
    }

    private static String symbolsJson(List<String> symbols) {
        return "\"symbols\":[" + String.join(",", symbols.stream().map(s -> "\"" + s + "\"").toList()) + "]";
    }

    private static Schema protocolOf(Schema record) {
        Schema.Field field = record.getField("protocol");
        return field == null ? null : field.schema();
    }

    @ParameterizedTest
    @MethodSource("records")
    void everyFieldAddedSinceTheBaselineHasADefault(Schema record) throws IOException {
        List<String> missing = new ArrayList<>();
        collectAddedWithoutDefault(baseline(record.getName()), record, record.getName(), missing);
        assertThat(missing).as("fields added since the baseline without a default").isEmpty();
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
