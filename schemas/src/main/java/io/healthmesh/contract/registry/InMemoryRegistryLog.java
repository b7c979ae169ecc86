package io.healthmesh.contract.registry;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RegistryLog} in memory: for tests and {@code mem://} registries. Keeps every record, so
 * a second registry opened on the same log replays the first one's history.
 */
public final class InMemoryRegistryLog implements RegistryLog {

    private final List<RegistryRecord> records = new ArrayList<>();

    @Override
    public synchronized List<RegistryRecord> replay() {
        return List.copyOf(records);
    }

    @Override
    public synchronized void append(RegistryRecord record) {
        records.add(record);
    }
}
