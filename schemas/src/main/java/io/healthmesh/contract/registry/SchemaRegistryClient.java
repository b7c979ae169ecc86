package io.healthmesh.contract.registry;

/**
 * What the serde asks a schema registry. Implementations: {@link HttpRegistryClient} (any
 * Confluent-compatible registry), {@link LocalRegistryClient} (a registry in this process, for
 * {@code mem://}) and {@link CachingRegistryClient}, which answers repeated questions from memory.
 * Every method throws {@link RegistryException} with the registry's error code.
 */
public interface SchemaRegistryClient extends AutoCloseable {

    /** Registers a schema text under a subject; returns its global id. */
    int register(String subject, String schema);

    /** The version of a subject that holds a schema text (40401 / 40403 when none). */
    RegisteredSchema lookup(String subject, String schema);

    /** The latest live version of a subject (40401 when none). */
    RegisteredSchema latest(String subject);

    /** The schema text with a global id (40403 when none). */
    String schemaById(int id);

    @Override
    default void close() {
    }
}
