package io.healthmesh.core.retry;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Exponential backoff between attempts (a notification's delivery, a topic reader's next try): {@code initial},
 * twice that, ... up to {@code max}.
 *
 * @param initial the wait after the first failed attempt
 * @param max the longest wait
 */
public record Backoff(Duration initial, Duration max) {

    public Backoff {
        requireNonNull(initial, "initial");
        requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff: " + initial + ".." + max + " (expected: 0 < initial <= max)");
        }
    }

    /** The wait after the {@code failures}-th failure in a row (1-based). */
    public Duration after(int failures) {
        if (failures <= 1) {
            return initial;
        }
        int doublings = Math.min(failures - 1, 30);
        long millis = initial.toMillis() << doublings;
        return millis <= 0 || millis >= max.toMillis() ? max : Duration.ofMillis(millis);
    }
}
