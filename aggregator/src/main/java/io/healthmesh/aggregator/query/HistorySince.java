package io.healthmesh.aggregator.query;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code since} of a history query: epoch milliseconds ({@code 1764576000000}), an instant
 * ({@code 2026-12-01T08:00:00Z}) or a duration ago ({@code 90s}, {@code 15m}, {@code 2h}).
 */
final class HistorySince {

    private static final Pattern AGO = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private HistorySince() {
    }

    static long parse(String text, long nowMs) {
        String t = text.trim();
        if (t.matches("\\d{1,19}") && t.length() > 9) {
            return Long.parseLong(t);
        }
        Matcher ago = AGO.matcher(t.toLowerCase(Locale.ROOT));
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            Duration d = switch (ago.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
            return nowMs - d.toMillis();
        }
        try {
            return Instant.parse(t).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("since: " + text + " (expected: epoch ms, an instant such as "
                    + "2026-12-01T08:00:00Z, or a duration ago such as 15m)");
        }
    }
}
