package io.healthmesh.testkit.fuzz;

import java.util.Map;
import java.util.TreeMap;

/** What a fuzz run counted: inputs, accepted, rejections by reason, the slowest record. */
public final class FuzzStats {

    private final String name;
    private final Map<String, Integer> rejections = new TreeMap<>();
    private int inputs;
    private int accepted;
    private long maxNanos;
    private long maxWallNanos;
    private String slowest = "";

    public FuzzStats(String name) {
        this.name = name;
    }

    /** An accepted input that took {@code cpuNanos} of its thread's CPU time and {@code wallNanos} in all. */
    public void accepted(long cpuNanos, long wallNanos, String kind) {
        inputs++;
        accepted++;
        time(cpuNanos, wallNanos, kind);
    }

    /** A rejected input (see {@link #accepted}). */
    public void rejected(String reason, long cpuNanos, long wallNanos, String kind) {
        inputs++;
        rejections.merge(reason, 1, Integer::sum);
        time(cpuNanos, wallNanos, kind);
    }

    private void time(long cpuNanos, long wallNanos, String kind) {
        maxWallNanos = Math.max(maxWallNanos, wallNanos);
        if (cpuNanos > maxNanos) {
            maxNanos = cpuNanos;
            slowest = kind;
        }
    }

    /** The most wall-clock time one record took (includes time the thread was not scheduled, GC pauses). */
    public double maxWallMillis() {
        return maxWallNanos / 1e6;
    }

    public int inputs() {
        return inputs;
    }

    public int accepted() {
        return accepted;
    }

    public int rejectedTotal() {
        return rejections.values().stream().mapToInt(Integer::intValue).sum();
    }

    public Map<String, Integer> rejections() {
        return Map.copyOf(rejections);
    }

    /** The most CPU time one record took, ms. */
    public double maxMillis() {
        return maxNanos / 1e6;
    }

    @Override
    public String toString() {
        return String.format("%s: %d inputs, %d accepted, %d rejected %s, slowest record %.2f ms CPU (%s), "
                + "%.2f ms wall", name, inputs, accepted, rejectedTotal(), rejections, maxMillis(), slowest,
                maxWallMillis());
    }
}
