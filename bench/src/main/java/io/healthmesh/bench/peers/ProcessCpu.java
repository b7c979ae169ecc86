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
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
        return parseCpuNanos(stat);
    }

    /** Parses a {@code /proc/<pid>/stat} line; the command name may hold spaces and parentheses. */
    static long parseCpuNanos(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after "pid (comm) ": state is field 3 of proc(5), utime 14 and stime 15
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    }
}
