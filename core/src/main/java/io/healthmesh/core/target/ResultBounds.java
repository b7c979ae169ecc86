package io.healthmesh.core.target;

import java.util.ArrayList;
import java.util.List;

/**
 * The bounds of SPEC section 9 on a probe result, as the aggregator checks it before it touches state: encoded
 * size, region name (the rule of a prober's {@code region} setting), prober id and detail length. A result that
 * breaks one is rejected, not trimmed: only a forged or broken producer writes one.
 */
public final class ResultBounds {

    private ResultBounds() {
    }

    /** The encoded size of a result; empty when within {@link Limits#MAX_RESULT_BYTES}. */
    public static List<Violation> validateEncodedSize(int bytes) {
        if (bytes > Limits.MAX_RESULT_BYTES) {
            return List.of(Violation.of("result", bytes + " bytes encoded", "at most " + Limits.MAX_RESULT_BYTES));
        }
        return List.of();
    }

    /** The largest magnitude of any {@code long} of the contract: {@code 2^53 - 1}, exact in a JavaScript number. */
    public static final long MAX_SAFE_LONG = (1L << 53) - 1;

    /**
     * The result's numbers: each within {@code [0, 2^53)}, so that what the aggregator copies to its own output
     * (latency, start time) stays decodable by every client, JavaScript ones included.
     */
    public static List<Violation> validateNumbers(long generation, long startedAtMs, long latencyMicros) {
        List<Violation> out = new ArrayList<>();
        safe(out, "generation", generation);
        safe(out, "startedAtMs", startedAtMs);
        safe(out, "latencyMicros", latencyMicros);
        return List.copyOf(out);
    }

    private static void safe(List<Violation> out, String field, long value) {
        if (value < 0 || value > MAX_SAFE_LONG) {
            out.add(Violation.of(field, Long.toString(value), "0.." + MAX_SAFE_LONG));
        }
    }

    /** Every violation of the result's text fields, in field order; empty when within bounds. */
    public static List<Violation> validate(String region, String proberId, String detail) {
        List<Violation> out = new ArrayList<>();
        if (!Limits.isRegion(region)) {
            out.add(Violation.of("region", Texts.show(region), Limits.REGION_RULE));
        }
        if (proberId != null && (proberId.length() > Limits.MAX_PROBER_ID_LENGTH || !Texts.wellFormed(proberId))) {
            out.add(Violation.of("proberId", proberId.length() + " characters",
                    "at most " + Limits.MAX_PROBER_ID_LENGTH + " characters of valid Unicode"));
        }
        if (detail != null && detail.length() > Limits.MAX_DETAIL_LENGTH) {
            out.add(Violation.of("detail", detail.length() + " characters", "at most " + Limits.MAX_DETAIL_LENGTH));
        }
        return List.copyOf(out);
    }
}
