package io.healthmesh.replay;

import io.healthmesh.core.health.HealthStatus;

/**
 * A change of a target's overall status during a replay.
 *
 * @param from the status before; {@code null} for a target created in the range
 * @param to the status after; {@code null} when the target was deleted
 * @param atMs when the change happened: the domain's {@code sinceMs} (the completion of the result that caused it)
 */
public record StatusChange(String targetId, String group, HealthStatus from, HealthStatus to, long atMs) {

    /** A flip: from one decided status (HEALTHY, UNHEALTHY) to the other. */
    public boolean isFlip() {
        return decided(from) && decided(to) && from != to;
    }

    private static boolean decided(HealthStatus s) {
        return s == HealthStatus.HEALTHY || s == HealthStatus.UNHEALTHY;
    }
}
