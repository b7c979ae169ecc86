package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegisteredSchema;
import io.healthmesh.contract.registry.SchemaRegistryClient;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the calls that reach the registry (under the caching layer). */
final class CountingRegistryClient implements SchemaRegistryClient {

    final AtomicInteger calls = new AtomicInteger();
    private final SchemaRegistryClient delegate;

    CountingRegistryClient(SchemaRegistryClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public int register(String subject, String schema) {
        calls.incrementAndGet();
        return delegate.register(subject, schema);
    }

    @Override
    public RegisteredSchema lookup(String subject, String schema) {
        calls.incrementAndGet();
        return delegate.lookup(subject, schema);
    }

    @Override
    public RegisteredSchema latest(String subject) {
        calls.incrementAndGet();
        return delegate.latest(subject);
    }

    @Override
    public String schemaById(int id) {
        calls.incrementAndGet();
        return delegate.schemaById(id);
    }
}
