package io.healthmesh.aggregator.topology;

import static java.util.Objects.requireNonNull;

/**
 * A decoded input: either a value or the {@link Rejection} that refuses it. Public so that tools reading the same
 * topics (replay) decode exactly as the aggregator does.
 */
public record Decoded<T>(T value, Rejection rejection) {

    static <T> Decoded<T> ok(T value) {
        return new Decoded<>(requireNonNull(value, "value"), null);
    }

    static <T> Decoded<T> rejected(String reason, String detail) {
        return new Decoded<>(null, new Rejection(reason, detail));
    }

    public boolean isRejected() {
        return rejection != null;
    }
}
