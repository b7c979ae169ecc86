package io.healthmesh.prober;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition against a real broker until it holds or a deadline passes (bounded in time and count). */
final class Await {

    private static final long POLL_MS = 50;

    private Await() {
    }

    static void until(Duration patience, BooleanSupplier condition, Supplier<String> whatFailed) {
        long deadline = System.nanoTime() + patience.toNanos();
        long polls = patience.toMillis() / POLL_MS + 1;
        for (long i = 0; i <= polls; i++) {
            if (condition.getAsBoolean()) {
                return;
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
        if (!condition.getAsBoolean()) {
            throw new AssertionError("not within " + patience + ": " + whatFailed.get());
        }
    }

    /** Checks that a condition keeps holding for a while (polled), e.g. that something does not happen. */
    static void holdsFor(Duration period, BooleanSupplier condition, Supplier<String> whatFailed) {
        long end = System.nanoTime() + period.toNanos();
        long polls = period.toMillis() / POLL_MS + 1;
        for (long i = 0; i <= polls && System.nanoTime() - end < 0; i++) {
            if (!condition.getAsBoolean()) {
                throw new AssertionError(whatFailed.get());
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while watching", e);
            }
        }
    }
}
