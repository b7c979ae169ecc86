package io.healthmesh.prober;

/**
 * How a prober keeps its own trouble from voting against targets (SPEC section 4), read from the settings by
 * {@link ProberConfig#from}.
 *
 * @param inconclusiveFraction share of {@code min(interval, timeout)} a probe may start late, or its event loop may
 *     stall, before its timeout or error is {@code INCONCLUSIVE}; above 0, at most 1
 */
public record ProberResilience(double inconclusiveFraction) {

    public static final double DEFAULT_INCONCLUSIVE_FRACTION = 0.25;

    public ProberResilience {
        if (!(inconclusiveFraction > 0 && inconclusiveFraction <= 1)) {
            throw new IllegalArgumentException("inconclusive.fraction: " + inconclusiveFraction
                    + " (expected: above 0, at most 1)");
        }
    }

    /** Every default. */
    public static ProberResilience defaults() {
        return new ProberResilience(DEFAULT_INCONCLUSIVE_FRACTION);
    }

    static ProberResilience read(ProberConfig.Reader r) {
        double fraction = positiveFraction(r, "inconclusive.fraction", DEFAULT_INCONCLUSIVE_FRACTION);
        return new ProberResilience(fraction);
    }

    private static double positiveFraction(ProberConfig.Reader r, String key, double defaultValue) {
        String raw = r.optional(key);
        if (raw == null) {
            return defaultValue;
        }
        try {
            double value = Double.parseDouble(raw);
            if (value > 0 && value <= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        r.problem(key, raw, "above 0, at most 1");
        return defaultValue;
    }

    @Override
    public String toString() {
        return "inconclusiveFraction=" + inconclusiveFraction;
    }
}
