package io.healthmesh.core.target;

import java.util.regex.Pattern;

/**
 * The size bounds of SPEC section 9, in one place: what a definition and a probe result may hold before anything
 * is stored. Prober, aggregator and {@code healthmesh targets apply} apply the same numbers (through
 * {@link TargetValidator}, {@link DefinitionBounds} and {@link ResultBounds}), so a definition the CLI accepts is
 * accepted everywhere, and a record that breaks one is rejected like any invalid record.
 */
public final class Limits {

    /** Largest encoded definition (Confluent wire format, header included), checked before decoding. */
    public static final int MAX_DEFINITION_BYTES = 16 * 1024;
    /** Largest encoded probe result, checked before decoding (a real one is about 100 bytes). */
    public static final int MAX_RESULT_BYTES = 4 * 1024;
    /** Longest target id and group name, in characters. */
    public static final int MAX_ID_LENGTH = 255;
    /** Region names: the same rule as a prober's {@code region} setting. */
    public static final Pattern REGION = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** Human-readable form of {@link #REGION}. */
    public static final String REGION_RULE = "1-64 of [A-Za-z0-9._-]";
    private static final int MAX_REGION_LENGTH = 64;
    /** Most regions a target may list. */
    public static final int MAX_REGIONS = 16;
    /** Most labels per target. */
    public static final int MAX_LABELS = 32;
    /** Longest label key, in characters. */
    public static final int MAX_LABEL_KEY_LENGTH = 128;
    /** Longest label value, in characters. */
    public static final int MAX_LABEL_VALUE_LENGTH = 256;
    /** Longest HTTP header name, in characters. */
    public static final int MAX_HEADER_NAME_LENGTH = 128;
    /** Longest HTTP header value, in characters. */
    public static final int MAX_HEADER_VALUE_LENGTH = 1024;
    /** Most entries in {@code http.expectedStatuses}. */
    public static final int MAX_EXPECTED_STATUSES = 16;
    /** Longest probe detail in a result, in characters (the prober writes at most this). */
    public static final int MAX_DETAIL_LENGTH = 200;
    /** Longest prober id in a result, in characters. */
    public static final int MAX_PROBER_ID_LENGTH = 255;

    /**
     * Whether {@code name} is a region name ({@link #REGION}), without a regular expression: the aggregator checks
     * the region of every probe result, and a matcher per result was 1.5 % of its stream thread (JFR, 2026-12-04).
     */
    public static boolean isRegion(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_REGION_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    private Limits() {
    }
}
