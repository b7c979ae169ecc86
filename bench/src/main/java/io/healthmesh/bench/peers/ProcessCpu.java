package io.healthmesh.bench.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system) of a process from {@code /proc/<pid>/stat}, in nanoseconds. The kernel counts in
 * clock ticks (10 ms at the usual {@code CLK_TCK} of 100), so a measurement window must be long enough for
 * the rounding not to matter: every figure of the benchmark uses windows of several seconds of CPU.
 * The same reading is used for healthmesh's prober, HAProxy and blackbox_exporter, so their ratios compare like
 * with like.
 */
public final class ProcessCpu {

    /** {@code getconf CLK_TCK} on Linux for every architecture the JDK runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    private ProcessCpu() {
    }

    /** User plus system CPU time of {@code pid} so far. */
    public static long cpuNanos(long pid) {
        return parseCpuNanos(read(pid));
    }

    /** System (kernel) CPU time of {@code pid} so far: the share of {@link #cpuNanos} spent in system calls. */
    public static long systemNanos(long pid) {
        return parseTicks(read(pid), 12) * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    }

    /** Parses a {@code /proc/<pid>/stat} line; the command name may hold spaces and parentheses. */
    static long parseCpuNanos(String stat) {
        return (parseTicks(stat, 11) + parseTicks(stat, 12)) * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    }

    /** Field {@code index} counted after "pid (comm) ": 0 is the state (field 3 of proc(5)), 11 utime, 12 stime. */
    private static long parseTicks(String stat, int index) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[index]);
    }

    private static String read(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
    }
}
