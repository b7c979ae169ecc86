package io.healthmesh.bench.run;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a worker JVM once the driver that started it is gone. The driver holds the worker's standard input open and
 * never writes to it; when the driver's JVM ends, however it ends, the operating system closes its end of the pipe
 * and the worker reads the end of the stream. The driver's own shutdown hook ({@link ChildJvm}) cannot cover a halt:
 * the embedded broker halts the driver's JVM when its log directory fails (too many open files, say), and an orphan
 * prober would take most of a core from the next run and void its figures.
 */
final class DriverWatch {

    private DriverWatch() {
    }

    /** How long the worker's own shutdown (its hooks) may take before the JVM is halted. */
    static final long SHUTDOWN_BOUND_MS = 10_000;

    /**
     * Starts a daemon thread that exits this JVM with {@code status} once standard input ends: through its shutdown
     * hooks, halted if they take longer than {@link #SHUTDOWN_BOUND_MS} (a worker closing its Kafka clients waits for
     * a broker that went with the driver, and an orphan prober has ignored SIGTERM that way).
     */
    static void exitWhenStdinCloses(int status) {
        watch(System.in, () -> {
            System.err.println("the driver is gone (standard input closed): stopping");
            Thread halt = new Thread(() -> {
                try {
                    Thread.sleep(SHUTDOWN_BOUND_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Runtime.getRuntime().halt(status);
            }, "bench-driver-watch-halt");
            halt.setDaemon(true);
            halt.start();
            System.exit(status);
        });
    }

    static Thread watch(InputStream in, Runnable onEnd) {
        Thread watch = new Thread(() -> {
            try {
                while (in.read() >= 0) {
                    // nothing is written; read until the end of the stream
                }
            } catch (IOException e) {
                // a broken pipe: the driver is gone as well
            }
            onEnd.run();
        }, "bench-driver-watch");
        watch.setDaemon(true);
        watch.start();
        return watch;
    }
}
