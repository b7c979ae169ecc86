package io.healthmesh.notifier.route;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as written in the route file: {@code 0}, {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}. */
final class Durations {

    static final String EXPECTED = "a duration such as 0, 500ms, 30s, 5m, 2h or 1d";
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)?");

    private Durations() {
    }

    /** A duration in the file's own notation, e.g. {@code 5m}. */
    static String show(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0";
        }
        long[] units = {86_400_000, 3_600_000, 60_000, 1_000};
        String[] names = {"d", "h", "m", "s"};
        for (int i = 0; i < units.length; i++) {
            if (ms % units[i] == 0) {
                return ms / units[i] + names[i];
            }
        }
        return ms + "ms";
    }

    /** The duration, or {@code null} when the text is not one. */
    static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2);
        if (unit == null) {
            return n == 0 ? Duration.ZERO : null;
        }
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
