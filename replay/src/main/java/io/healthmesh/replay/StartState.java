package io.healthmesh.replay;

import io.healthmesh.core.health.HealthStatus;

/**
 * A target's group and status when the replayed range starts.
 *
 * @param group the target's group, or {@code null} when it did not exist yet
 * @param status the target's status, or {@code null} when it did not exist yet
 */
public record StartState(String group, HealthStatus status) {
}
