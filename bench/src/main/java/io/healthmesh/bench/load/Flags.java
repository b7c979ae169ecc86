package io.healthmesh.bench.load;

/** The one range check of the load driver's flags: a value out of range is refused by the flag's name. */
final class Flags {

    private Flags() {
    }

    static void inRange(String flag, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(flag + " must be within " + fmt(min) + ".." + fmt(max) + ", not "
                    + fmt(value));
        }
    }

    /** {@code given}, or the mode's default. */
    static int orDefault(Integer given, boolean shortMode, int full, int brief) {
        return given != null ? given : shortMode ? brief : full;
    }

    private static String fmt(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
                : Double.toString(value);
    }
}
