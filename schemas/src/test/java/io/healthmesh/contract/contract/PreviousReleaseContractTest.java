package io.healthmesh.contract.contract;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rolling upgrade runs the previous release and this one side by side on the same topics
 * (docs/operations/rolling-upgrades.md): each must read what the other writes. {@code
 * src/test/resources/contract-previous-release/} holds the records as the previous release wrote them (replaced
 * with the released schemas when a version is tagged). Unlike the first-release baseline of {@link
 * ContractEvolutionTest}, this catches a change that is compatible with the first release but not with the last
 * one. The one exception is the same: {@code Protocol} symbols appended since (an old worker rejects such a
 * definition; workers are upgraded before one is written).
 */
class PreviousReleaseContractTest {

    static Stream<Schema> records() {
        return Stream.of(TargetDefinition.getClassSchema(), ProbeResult.getClassSchema(),
                TargetHealth.getClassSchema(), GroupHealth.getClassSchema(),
                GroupPolicy.getClassSchema(), Maintenance.getClassSchema());
    }

    @ParameterizedTest
    @MethodSource("records")
    void thisReleaseReadsWhatThePreviousOneWrote(Schema current) throws IOException {
        Schema previous = previous(current.getName());
        assertCompatible(SchemaCompatibility.checkReaderWriterCompatibility(current, previous),
                "this release reading the previous one's " + current.getName());
    }

    @ParameterizedTest
    @MethodSource("records")
    void thePreviousReleaseReadsWhatThisOneWrites(Schema current) throws IOException {
        Schema previous = withCurrentProtocols(previous(current.getName()));
        assertCompatible(SchemaCompatibility.checkReaderWriterCompatibility(previous, current),
                "the previous release reading this one's " + current.getName());
    }

    private static void assertCompatible(SchemaCompatibility.SchemaPairCompatibility result, String what) {
        assertThat(result.getType()).as("%s: %s", what, result.getResult().getIncompatibilities())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    /** {@code previous} with the current Protocol symbols, when the record has a protocol field. */
    private static Schema withCurrentProtocols(Schema previous) {
        Schema.Field field = previous.getField("protocol");
        if (field == null) {
            return previous;
        }
        List<String> released = field.schema().getEnumSymbols();
        List<String> current = TargetDefinition.getClassSchema().getField("protocol").schema().getEnumSymbols();
        assertThat(current.subList(0, released.size())).as("Protocol symbols are only appended").isEqualTo(released);
        String text = previous.toString();
        String releasedJson = symbolsJson(released);
        assertThat(text).contains(releasedJson);
        return new Schema.Parser().parse(text.replace(releasedJson, symbolsJson(current)));
    }

    private static String symbolsJson(List<String> symbols) {
        return "\"symbols\":[" + String.join(",", symbols.stream().map(s -> "\"" + s + "\"").toList()) + "]";
    }

    private static Schema previous(String name) throws IOException {
        try (InputStream in = PreviousReleaseContractTest.class.getResourceAsStream(
                "/contract-previous-release/" + name + ".avsc")) {
            assertThat(in).as("previous release's schema of " + name).isNotNull();
            return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
