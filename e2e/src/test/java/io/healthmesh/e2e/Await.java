package io.healthmesh.e2e;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Bounded polling: every wait of the suite has a deadline and says what it waited for when it runs out. */
final class Await {

    private static final Duration STEP = Duration.ofMillis(200);

    private Await() {
    }

    /**
     * Polls {@code probe} until it yields a value or {@code timeout} passes.
     *
     * @param describe what was awaited, with whatever was seen so far (called only on failure)
     * @throws AssertionError when the deadline passes
     */
    static <T> T until(Duration timeout, Supplier<String> describe, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + describe.get());
            }
            try {
                Thread.sleep(STEP.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + describe.get(), e);
            }
        }
    }
}
