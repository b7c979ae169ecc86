package io.healthmesh.bench.run;

import java.util.Arrays;

/** A bounded growable array of long samples with percentiles; samples past the bound are counted, not kept. */
public final class LongSamples {

    private final int capacity;
    private long[] values = new long[1024];
    private int size;
    private long overflow;

    public LongSamples(int capacity) {
        this.capacity = capacity;
    }

    public synchronized void add(long value) {
        if (size == capacity) {
            overflow++;
            return;
        }
        if (size == values.length) {
            values = Arrays.copyOf(values, Math.min(capacity, values.length * 2));
        }
        values[size++] = value;
    }

    public synchronized int size() {
        return size;
    }

    /** Samples not kept because the bound was reached. */
    public synchronized long overflow() {
        return overflow;
    }

    /** The samples, sorted. */
    public synchronized long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    public synchronized void clear() {
        size = 0;
        overflow = 0;
    }

    /** The {@code p}-th percentile (0..100) of sorted samples by the nearest-rank method; NaN when empty. */
    public static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static double mean(long[] values) {
        return values.length == 0 ? Double.NaN : Arrays.stream(values).average().orElse(Double.NaN);
    }
}
