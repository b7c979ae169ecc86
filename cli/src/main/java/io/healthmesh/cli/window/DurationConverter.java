package io.healthmesh.cli.window;

import picocli.CommandLine;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations the way people write them: {@code 500ms}, {@code 2s}, {@code 1.5s}, {@code 5m}, {@code 1h}, or
 * ISO-8601 ({@code PT2S}). A bare number is refused: {@code 5} could mean seconds or milliseconds.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern HUMAN = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** The duration of {@code text}. */
    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = HUMAN.matcher(t);
        if (m.matches()) {
            BigDecimal amount = new BigDecimal(m.group(1));
            BigDecimal millis = switch (m.group(2)) {
                case "ms" -> amount;
                case "s" -> amount.movePointRight(3);
                case "m" -> amount.multiply(BigDecimal.valueOf(60_000));
                default -> amount.multiply(BigDecimal.valueOf(3_600_000));
            };
            try {
                return Duration.ofMillis(millis.longValueExact());
            } catch (ArithmeticException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + text + "' (expected: whole milliseconds, e.g. 1.5s or 250ms)");
            }
        }
        if (t.startsWith("pt")) {
            try {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException ignored) {
                // falls through to the message below
            }
        }
        throw new CommandLine.TypeConversionException(
                "'" + text + "' (expected: a duration such as 500ms, 2s, 1.5s, 5m)");
    }
}
