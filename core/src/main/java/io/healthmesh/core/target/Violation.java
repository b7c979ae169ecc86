package io.healthmesh.core.target;

import static java.util.Objects.requireNonNull;

/**
 * One broken rule of a target definition: the field's path (such as {@code http.path}) and a message that
 * shows the offending value and what was expected. Renders as {@code unhealthyThreshold: 0 (expected: 1..10)}.
 *
 * @param field dotted path of the field in the contract, e.g. {@code udp.request} or {@code http.headers[X-A]}
 * @param message the value as found and the expectation, e.g. {@code 0 (expected: 1..10)}
 */
public record Violation(String field, String message) {

    public Violation {
        requireNonNull(field, "field");
        requireNonNull(message, "message");
    }

    /** A violation whose message is {@code value (expected: expectation)}. */
    static Violation of(String field, String value, String expectation) {
        return new Violation(field, value + " (expected: " + expectation + ")");
    }

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
