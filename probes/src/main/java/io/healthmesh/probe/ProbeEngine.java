package io.healthmesh.probe;

import io.healthmesh.core.target.TargetSpec;

import java.util.concurrent.CompletableFuture;

/**
 * Runs one probe of a target and completes with its report. The engine owns the deadline
 * ({@code timeoutMs}: no verdict in time is {@code TIMEOUT}), the timing, the deny list and the choice
 * of protocol; it never blocks the caller and never completes exceptionally (an unexpected failure is
 * an {@code INCONCLUSIVE} report, cause {@code internal-error}). {@link NettyProbeEngine} is the implementation.
 */
public interface ProbeEngine extends AutoCloseable {

    CompletableFuture<ProbeReport> probe(TargetSpec target);

    @Override
    void close();
}
