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

    /**
     * The CPU time (user + system) of a JVM's JIT compiler threads, read from {@code /proc/<pid>/task}: what the
     * compilers take from the process's CPU figure, unlike the {@link CompilationMXBean}'s elapsed compilation time,
     * which also counts the time a compiler thread waits for a core and so stays high on a busy machine. Threads
     * are recognised by their name ({@code C1 CompilerThre}, {@code C2 CompilerThre}, as the kernel truncates
     * {@code C2 CompilerThread0}); compiler threads the JVM adds and retires (UseDynamicNumberOfCompilerThreads)
     * are kept with their last reading, so the total never falls.
     */
    static final class CompilerThreads {

        private final long pid;
        private final java.util.Map<String, Long> lastByThread = new java.util.HashMap<>();

        CompilerThreads(long pid) {
            this.pid = pid;
        }

        /** Cumulative CPU milliseconds of the compiler threads, or -1 when {@code /proc} cannot be read. */
        synchronized long cpuMillis() {
            try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"));
                    } catch (IOException e) {
                        continue;   // the thread ended between the listing and the read
                    }
                    long ticks = compilerTicks(stat);
                    if (ticks >= 0) {
                        lastByThread.put(task.getFileName().toString(), ticks);
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                return -1;
            }
            return lastByThread.values().stream().mapToLong(Long::longValue).sum() * 1000 / CLOCK_TICKS_PER_SECOND;
        }
    }

    /** {@code getconf CLK_TCK} on Linux. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    /** utime + stime (clock ticks) of a {@code /proc/<pid>/task/<tid>/stat} line of a JIT compiler thread, else -1. */
    static long compilerTicks(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return -1;
        }
        String name = stat.substring(open + 1, close);
        if (!(name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"))) {
            return -1;
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
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
