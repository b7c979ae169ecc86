package io.healthmesh.aggregator.topology;

import static java.util.Objects.requireNonNull;

/**
 * Why an input record is refused: a machine-readable reason for the {@code healthmesh.reason} header and a detail
 * for people.
 */
public record Rejection(String reason, String detail) {

    /** The key is missing or not UTF-8. */
    static final String INVALID_KEY = "INVALID_KEY";
    /** A definition that decodes but breaks a rule (validator violations, key and id differ). */
    static final String INVALID_DEFINITION = "INVALID_DEFINITION";
    /** A result that decodes but cannot be applied as such (no value, key and target id differ, bad latency). */
    static final String INVALID_RESULT = "INVALID_RESULT";
    /** A result for a target this aggregator does not know. */
    static final String UNKNOWN_TARGET = "UNKNOWN_TARGET";

    public Rejection {
        requireNonNull(reason, "reason");
        requireNonNull(detail, "detail");
    }
}
