package io.healthmesh.prober.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU steal from {@code /proc/stat} (Linux): the share of CPU time between two reads that the hypervisor ran
 * someone else while this machine wanted to run. {@code NaN} where the file or its steal column is missing.
 */
public final class CpuSteal {

    private final Path stat;
    private long[] previous;

    public CpuSteal(Path stat) {
        this.stat = stat;
    }

    public static CpuSteal system() {
        return new CpuSteal(Path.of("/proc/stat"));
    }

    /** Steal in percent since the previous call ({@code NaN} on the first call or when not visible). */
    public double samplePercent() {
        long[] now;
        try {
            List<String> lines = Files.readAllLines(stat);
            now = lines.isEmpty() ? null : parse(lines.get(0));
        } catch (IOException | RuntimeException e) {
            now = null;
        }
        double result = now == null || previous == null ? Double.NaN : percent(previous, now);
        previous = now;
        return result;
    }

    /** {@code {total, steal}} of the aggregate {@code cpu} line, or {@code null} when it has no steal column. */
    static long[] parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (fields.length < 9 || !fields[0].equals("cpu")) {
            return null;
        }
        long total = 0;
        // user nice system idle iowait irq softirq steal [guest guest_nice: already counted in user/nice]
        for (int i = 1; i <= 8; i++) {
            total += Long.parseLong(fields[i]);
        }
        return new long[] {total, Long.parseLong(fields[8])};
    }

    static double percent(long[] before, long[] after) {
        long total = after[0] - before[0];
        long steal = after[1] - before[1];
        return total <= 0 ? 0 : 100.0 * steal / total;
    }
}
