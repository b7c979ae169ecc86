package io.healthmesh.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs something until SIGTERM/Ctrl-C or a bounded duration, then closes it on the calling thread. On a signal the
 * shutdown hook waits (bounded) for that close, so that the JVM does not exit under a half-closed worker and the
 * close happens in the order the worker defines.
 */
public final class UntilStopped {

    /** How long the shutdown hook waits for the close. */
    public static final Duration CLOSE_PATIENCE = Duration.ofSeconds(60);

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
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                closed.await(CLOSE_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "healthmesh-" + name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean signalled;
        try {
            if (duration == null) {
                stop.await();
                signalled = true;
            } else {
                signalled = stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            out.println(name + ": stopping");
            out.flush();
            try {
                running.close();
            } catch (Exception e) {
                throw new IllegalStateException(name + " did not close cleanly: " + e.getMessage(), e);
            } finally {
                closed.countDown();
            }
        }
        if (!signalled) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping anyway; the hook finds everything closed
            }
        }
        out.println(name + ": stopped");
        out.flush();
        return 0;
    }
}
