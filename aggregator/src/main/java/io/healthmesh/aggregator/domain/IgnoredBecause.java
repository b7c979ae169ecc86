package io.healthmesh.aggregator.domain;

/** Why a probe result changed nothing (each is counted, none is an error). */
public enum IgnoredBecause {
    /** The target is DISABLED: a result still in flight when checking was switched off. */
    DISABLED,
    /** The result was probed under another generation (the probe parameters have changed since). */
    OTHER_GENERATION,
    /** The target lists its regions and this result's region is not among them. */
    UNLISTED_REGION,
    /** The region already applied a result that started at the same time or later. */
    OUT_OF_ORDER,
    /**
     * The result was INCONCLUSIVE (the prober's own trouble): no counter moves and it does not count as heard, like a
     * missing result. A known region still records it ({@link RegionState#inconclusiveInARow()}).
     */
    INCONCLUSIVE
}
