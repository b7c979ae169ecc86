package io.healthmesh.contract.registry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Answers repeated questions from memory so that the serde calls the registry once per
 * (subject, schema) and once per id, not once per record: ids never change for a schema, and a
 * schema never changes for an id. The latest version of a subject is kept for the client's life
 * (Confluent's default for {@code use.latest.version}). Refusals are not cached.
 */
public final class CachingRegistryClient implements SchemaRegistryClient {

    private record SubjectSchema(String subject, String schema) {
    }

    private final SchemaRegistryClient delegate;
    private final Map<SubjectSchema, Integer> registered = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, RegisteredSchema> lookedUp = new ConcurrentHashMap<>();
    private final Map<String, RegisteredSchema> latest = new ConcurrentHashMap<>();
    private final Map<Integer, String> byId = new ConcurrentHashMap<>();

    public CachingRegistryClient(SchemaRegistryClient delegate) {
        this.delegate = requireNonNull(delegate, "delegate");
    }

    @Override
    public int register(String subject, String schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer id = registered.get(key);
        if (id == null) {
            id = delegate.register(subject, schema);
            registered.put(key, id);
            byId.putIfAbsent(id, schema);
        }
        return id;
    }

    @Override
    public RegisteredSchema lookup(String subject, String schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        RegisteredSchema found = lookedUp.get(key);
        if (found == null) {
            found = delegate.lookup(subject, schema);
            lookedUp.put(key, found);
        }
        return found;
    }

    @Override
    public RegisteredSchema latest(String subject) {
        RegisteredSchema found = latest.get(subject);
        if (found == null) {
            found = delegate.latest(subject);
            latest.put(subject, found);
            byId.putIfAbsent(found.id(), found.schema());
        }
        return found;
    }

    @Override
    public String schemaById(int id) {
        String schema = byId.get(id);
        if (schema == null) {
            schema = delegate.schemaById(id);
            byId.put(id, schema);
        }
        return schema;
    }

    @Override
    public void close() {
        delegate.close();
    }
}
