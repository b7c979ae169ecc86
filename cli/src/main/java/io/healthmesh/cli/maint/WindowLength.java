package io.healthmesh.cli.maint;

import io.healthmesh.cli.BadInputException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a window's length as typed: one or more of {@code <n>d}, {@code <n>h}, {@code <n>m}, {@code <n>s}. */
final class WindowLength {

    private static final Pattern WHOLE = Pattern.compile("(\\d{1,6}[dhms])+");
    private static final Pattern PART = Pattern.compile("(\\d{1,6})([dhms])");

    private WindowLength() {
    }

    static Duration parse(String text) {
        if (text == null || !WHOLE.matcher(text).matches()) {
            throw new BadInputException("--for: " + text + " (expected: a length such as 30m, 2h, 1h30m or 1d)");
        }
        Duration total = Duration.ZERO;
        Matcher m = PART.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "d" -> Duration.ofDays(n);
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofSeconds(n);
            });
        }
        return total;
    }
}
