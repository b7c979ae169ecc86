package io.healthmesh.bench.run;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * How a child JVM tells the driver how much its JIT has compiled: a daemon thread writes the total compilation time
 * of its {@link CompilationMXBean} to a small file every {@value #WRITE_PERIOD_MS} ms (written aside, then moved
 * over, so a reader never sees half a number). Reading it costs the child nothing measurable, unlike a {@code jcmd}
 * or {@code jstat} process started every second on the same cores.
 */
public final class JitActivity {

    /** The system property naming the file, set by {@link ChildJvm}. */
    public static final String FILE_PROPERTY = "healthmesh.bench.jit-file";
    static final long WRITE_PERIOD_MS = 250;

    private JitActivity() {
    }

    /** Starts the writer thread when {@code file} is not null and the JVM reports its compilation time. */
    static void startWriting(String file) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (file == null || jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        Path target = Path.of(file);
        Path aside = Path.of(file + ".tmp");
        Thread writer = new Thread(() -> {
            try {
                while (true) {
                    Files.writeString(aside, Long.toString(jit.getTotalCompilationTime()));
                    Files.move(aside, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    Thread.sleep(WRITE_PERIOD_MS);
                }
            } catch (IOException e) {
                System.err.println("bench: cannot write " + target + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-jit-activity");
        writer.setDaemon(true);
        writer.start();
    }

    /** The compilation milliseconds last written to {@code file}, or -1 when there is none yet. */
    static long read(Path file) {
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
