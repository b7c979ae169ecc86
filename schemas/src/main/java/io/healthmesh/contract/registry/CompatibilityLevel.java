package io.healthmesh.contract.registry;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Confluent's compatibility levels. {@code BACKWARD}: the new schema reads data written with the
 * previous one; {@code FORWARD}: the previous schema reads data written with the new one;
 * {@code FULL}: both. The {@code _TRANSITIVE} forms check every live version instead of only the
 * latest. The check itself is Avro's {@link SchemaCompatibility}.
 */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    private final boolean backward;
    private final boolean forward;
    private final boolean transitive;

    CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
        this.backward = backward;
        this.forward = forward;
        this.transitive = transitive;
    }

    /**
     * Parses a level name, case-insensitively.
     *
     * @throws RegistryException 42203 when the name is not a level
     */
    public static CompatibilityLevel parse(String name) {
        if (name != null) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                // falls through to the registry's own error
            }
        }
        throw RegistryException.invalidCompatibilityLevel(name);
    }

    /** True for the {@code _TRANSITIVE} forms. */
    public boolean transitive() {
        return transitive;
    }

    /**
     * Checks a candidate against the live versions of a subject, oldest first.
     *
     * @return one message per incompatibility; empty when compatible
     */
    public List<String> check(Schema candidate, List<Schema> existingOldestFirst) {
        if (this == NONE || existingOldestFirst.isEmpty()) {
            return List.of();
        }
        List<Schema> against = transitive
                ? existingOldestFirst
                : List.of(existingOldestFirst.get(existingOldestFirst.size() - 1));
        return checkAgainst(candidate, against);
    }

    /** Checks a candidate against exactly the given schemas, in this level's directions (transitivity aside). */
    public List<String> checkAgainst(Schema candidate, List<Schema> against) {
        List<String> problems = new ArrayList<>();
        if (this == NONE) {
            return problems;
        }
        for (Schema existing : against) {
            if (backward) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, existing), "new schema cannot read data written with an existing one", problems);
            }
            if (forward) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(existing, candidate), "an existing schema cannot read data written with the new one", problems);
            }
        }
        return problems;
    }

    private static void describe(SchemaPairCompatibility result, String direction, List<String> problems) {
        for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
            problems.add("{errorType:'" + incompatibility.getType() + "', description:'" + direction + ": "
                    + incompatibility.getMessage() + "', location:'" + incompatibility.getLocation() + "'}");
        }
    }
}
