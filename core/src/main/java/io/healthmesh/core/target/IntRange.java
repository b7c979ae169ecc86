package io.healthmesh.core.target;

/** An inclusive range of integers, shown as {@code min..max} (or the single value when both ends are equal). */
public record IntRange(int min, int max) {

    public IntRange {
        if (min > max) {
            throw new IllegalArgumentException("range: " + min + ".." + max + " (expected: min <= max)");
        }
    }

    public boolean contains(int value) {
        return value >= min && value <= max;
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + ".." + max;
    }
}
