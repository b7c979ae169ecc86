package io.healthmesh.contract.registry;

import static java.util.Objects.requireNonNull;

/**
 * What the registry writes to its log. Replaying the records in order rebuilds the registry; the
 * Kafka log keys them so that compaction keeps the last record of each subject version and of
 * each config, which is all a replay needs.
 */
public sealed interface RegistryRecord {

    /** A subject version, new or soft-deleted ({@code deleted = true}). */
    record SchemaVersion(String subject, int version, int id, String schema, boolean deleted) implements RegistryRecord {
        public SchemaVersion {
            requireNonNull(subject, "subject");
            requireNonNull(schema, "schema");
        }
    }

    /** A permanently deleted subject version (a tombstone in the Kafka log). */
    record SchemaVersionRemoved(String subject, int version) implements RegistryRecord {
        public SchemaVersionRemoved {
            requireNonNull(subject, "subject");
        }
    }

    /**
     * A compatibility level: global when {@code subject} is null; {@code level} null removes a
     * subject's own level (the subject then follows the global one).
     */
    record Config(String subject, CompatibilityLevel level) implements RegistryRecord {
    }
}
