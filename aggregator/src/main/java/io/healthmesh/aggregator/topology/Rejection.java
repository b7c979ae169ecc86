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

    /** Handling the record failed in a way no rule foresaw (a bug, or input no bound caught): rejected, not retried. */
    static final String PROCESSING_FAILED = "PROCESSING_FAILED";
    /** The record cannot be copied to the rejected topic as it is (it would exceed the producer's request size). */
    static final String TOO_LARGE = "TOO_LARGE";
    /** A result whose probe started further ahead of the aggregator's clock than the allowed skew. */
    static final String FUTURE_RESULT = "FUTURE_RESULT";
    /** A result from a region the target does not list. */
    static final String UNLISTED_REGION = "UNLISTED_REGION";
    /** A group policy that decodes but breaks a rule (bounds, neither threshold set, key and group id differ). */
    static final String INVALID_GROUP_POLICY = "INVALID_GROUP_POLICY";

    public Rejection {
        requireNonNull(reason, "reason");
        requireNonNull(detail, "detail");
    }
}
