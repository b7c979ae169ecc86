package io.healthmesh.contract.registry;

import static java.util.Objects.requireNonNull;

/** A client of a {@link SchemaRegistry} in this process: what {@code mem://} URLs select. */
public final class LocalRegistryClient implements SchemaRegistryClient {

    private final SchemaRegistry registry;

    public LocalRegistryClient(SchemaRegistry registry) {
        this.registry = requireNonNull(registry, "registry");
    }

    @Override
    public int register(String subject, String schema) {
        return registry.register(subject, schema);
    }

    @Override
    public RegisteredSchema lookup(String subject, String schema) {
        return registry.lookup(subject, schema, false);
    }

    @Override
    public RegisteredSchema latest(String subject) {
        return registry.version(subject, "latest", false);
    }

    @Override
    public String schemaById(int id) {
        return registry.schemaById(id);
    }
}
