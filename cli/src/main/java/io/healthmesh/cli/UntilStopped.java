package io.healthmesh.cli;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Runs something until SIGTERM/Ctrl-C or a bounded duration, then closes it on the calling thread, in its own order,
 * before the JVM may exit (see {@link StopSignal}).
 */
public final class UntilStopped {

    private UntilStopped() {
    }

    /**
     * Blocks until a signal or {@code duration} ({@code null} = no limit), then closes {@code running}.
     *
     * @return 0 once closed
     * @throws IllegalStateException when the close fails
     */
    public static int run(AutoCloseable running, Duration duration, PrintWriter out, String name)
            throws InterruptedException {
        return run(StopSignal.install(name), running, duration, out, name);
    }

    /** As {@link #run(AutoCloseable, Duration, PrintWriter, String)} with a signal installed earlier. */
    public static int run(StopSignal signal, AutoCloseable running, Duration duration, PrintWriter out, String name)
            throws InterruptedException {
        try {
            signal.await(duration);
        } finally {
            out.println(name + ": stopping");
            out.flush();
            try {
                running.close();
            } catch (Exception e) {
                throw new IllegalStateException(name + " did not close cleanly: " + e.getMessage(), e);
            } finally {
                signal.closed();
            }
        }
        out.println(name + ": stopped");
        out.flush();
        return 0;
    }
}
