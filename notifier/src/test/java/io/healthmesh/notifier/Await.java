package io.healthmesh.notifier;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition, polling every 50 ms, bounded; fails with what was seen last. */
final class Await {

    private Await() {
    }

    static void until(Duration patience, BooleanSupplier condition, Supplier<String> seen) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + patience + ": " + seen.get());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
