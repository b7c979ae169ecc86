package io.healthmesh.core.health;

/** Health state of a target (BEHAVIOUR.md section 2). */
public enum HealthStatus {
    /** New or re-configured; thresholds not reached yet. Not routable on its own. */
    DETECTING,
    /** Passed {@code healthyThreshold} probes in a row. Routable. */
    HEALTHY,
    /** Failed {@code unhealthyThreshold} probes in a row. Not routable on its own. */
    UNHEALTHY,
    /** Health checking switched off: not probed, routable. */
    DISABLED;

    /** Routable without fail-open: HEALTHY and DISABLED. */
    public boolean isRoutable() {
        return this == HEALTHY || this == DISABLED;
    }
}
