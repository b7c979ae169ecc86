package io.healthmesh.prober.schedule;

/**
 * A monotonic time source in nanoseconds. The scheduler reads time only through this interface so that
 * tests drive it with a fake ticker and fire timers by hand instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

    /** The current reading; only differences between readings mean anything. */
    long nanoTime();

    /** The JVM's monotonic clock ({@link System#nanoTime()}). */
    static Ticker system() {
        return System::nanoTime;
    }
}
