package io.healthmesh.prober.schedule;

import io.healthmesh.core.target.TargetSpec;

/**
 * Receives what the scheduler does. Called from timer and event-loop threads: implementations must be
 * thread-safe and must not block (they count and hand results to a bounded buffer, nothing more).
 */
public interface ProbeListener {

    /** A probe finished and its target is still scheduled (results of removed targets are not reported). */
    void completed(CompletedProbe probe);

    /** A fixed-rate slot passed without a probe. */
    void skipped(TargetSpec target, SkipReason reason);

    /** A fixed-delay probe found the in-flight bound reached and waits for a free slot (its lag grows). */
    void delayed(TargetSpec target);
}
