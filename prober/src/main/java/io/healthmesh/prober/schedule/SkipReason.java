package io.healthmesh.prober.schedule;

/** Why a fixed-rate (L4) probe slot passed without a probe. */
public enum SkipReason {
    /** The target's previous probe was still running at the slot (fixed rate never overlaps a target with itself). */
    PREVIOUS_STILL_RUNNING,
    /** The worker's bound on probes in flight was reached at the slot. */
    IN_FLIGHT_LIMIT,
    /** The timer fired after the following slot had already passed (a stalled process); the missed slot is dropped. */
    MISSED_SLOT
}
