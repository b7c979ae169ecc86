package io.healthmesh.pipeline;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition against real workers until it holds or a deadline passes (bounded in time and count). */
final class Await {

    private static final long POLL_MS = 50;

    private Await() {
    }

    /** Waits until {@code condition} holds; fails with {@code whatFailed} after {@code patience}. */
    static void until(Duration patience, BooleanSupplier condition, Supplier<String> whatFailed) {
        value(patience, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty(), whatFailed);
    }

    /** Waits until {@code probe} finds a value and returns it; fails with {@code whatFailed} after {@code patience}. */
    static <T> T value(Duration patience, Supplier<Optional<T>> probe, Supplier<String> whatFailed) {
        long deadline = System.nanoTime() + patience.toNanos();
        long polls = patience.toMillis() / POLL_MS + 1;
        for (long i = 0; i <= polls; i++) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                break;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            }
        }
        return probe.get().orElseThrow(() -> new AssertionError("not within " + patience + ": " + whatFailed.get()));
    }
}
