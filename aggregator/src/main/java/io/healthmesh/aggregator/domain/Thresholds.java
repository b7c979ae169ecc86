package io.healthmesh.aggregator.domain;

/**
 * Consecutive results needed to change status: {@code healthy} successes in a row make a target HEALTHY,
 * {@code unhealthy} failures in a row make it UNHEALTHY (BEHAVIOUR.md section 2). Ranges are the validator's business;
 * this only refuses values the state machine cannot work with.
 */
public record Thresholds(int healthy, int unhealthy) {

    public Thresholds {
        if (healthy < 1) {
            throw new IllegalArgumentException("healthyThreshold: " + healthy + " (expected: 1 or more)");
        }
        if (unhealthy < 1) {
            throw new IllegalArgumentException("unhealthyThreshold: " + unhealthy + " (expected: 1 or more)");
        }
    }
}
