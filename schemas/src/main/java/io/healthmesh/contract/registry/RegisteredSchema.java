package io.healthmesh.contract.registry;

import static java.util.Objects.requireNonNull;

/**
 * One version of a subject: the subject, its version number, the global schema id and the
 * schema's canonical text (Avro's JSON form of the parsed schema).
 */
public record RegisteredSchema(String subject, int version, int id, String schema) {

    public RegisteredSchema {
        requireNonNull(subject, "subject");
        requireNonNull(schema, "schema");
    }
}
