package io.healthmesh.bench.run;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a worker JVM once the driver that started it is gone. The driver holds the worker's standard input open and
 * never writes to it; when the driver's JVM ends, however it ends, the operating system closes its end of the pipe
 * and the worker reads the end of the stream. The driver's own shutdown hook ({@link ChildJvm}) cannot cover a halt:
 * on 2026-12-02 the embedded broker halted the driver's JVM when its log directory failed (too many open files),
 * and the orphan prober took most of a core from the next run, whose figures were void.
 */
final class DriverWatch {

    private DriverWatch() {
    }

    /** Starts a daemon thread that exits this JVM with {@code status} once standard input ends. */
    static void exitWhenStdinCloses(int status) {
        watch(System.in, () -> {
            System.err.println("the driver is gone (standard input closed): stopping");
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
