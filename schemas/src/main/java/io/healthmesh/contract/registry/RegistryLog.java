package io.healthmesh.contract.registry;

import java.util.List;

/**
 * Where the registry keeps its records: a compacted Kafka topic in the server, memory in tests and
 * {@code mem://} registries. The registry calls {@link #replay()} once when it opens and
 * {@link #append} for every change, under its own lock (so implementations see one writer).
 */
public interface RegistryLog {

    /** Every record written so far, oldest first. */
    List<RegistryRecord> replay();

    /**
     * Writes one record durably; returns once it is safe. The registry changes its state only
     * after this returns.
     *
     * @throws RegistryException with {@link RegistryException#STORE_ERROR} when the write failed
     */
    void append(RegistryRecord record);
}
