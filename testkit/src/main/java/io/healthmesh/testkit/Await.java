package io.healthmesh.testkit;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The one way tests wait for something that happens on another thread or process: poll a condition until it holds
 * or a deadline passes, then fail with a description of what did not happen. Every wait is bounded; arguments
 * always come in the order patience, condition, description.
 */
public final class Await {

    private static final long POLL_MS = 50;

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code whatFailed} when it still does not after {@code patience}. */
    public static void until(Duration patience, BooleanSupplier condition, Supplier<String> whatFailed) {
        value(patience, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty(), whatFailed);
    }

    /** Returns the first value {@code probe} finds; fails with {@code whatFailed} when it finds none within {@code patience}. */
    public static <T> T value(Duration patience, Supplier<Optional<T>> probe, Supplier<String> whatFailed) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + patience + ": " + whatFailed.get());
            }
            pause("waiting for: " + whatFailed.get());
        }
    }

    /** Fails with {@code whatFailed} as soon as {@code condition} stops holding during {@code period}. */
    public static void holdsFor(Duration period, BooleanSupplier condition, Supplier<String> whatFailed) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - end < 0) {
            if (!condition.getAsBoolean()) {
                throw new AssertionError(whatFailed.get());
            }
            pause("watching: " + whatFailed.get());
        }
    }

    private static void pause(String doing) {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while " + doing, e);
        }
    }
}
