package io.healthmesh.ops;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * One setting a role accepts, declared once with everything about it: its key, its type, its default, the values it
 * accepts and what it does. {@link SettingsReader#get} reads it (the default when absent, a problem
 * {@code key: value (expected: ...)} when invalid), the role lists it in its {@code SETTINGS}, and a test per role
 * checks that docs/CONFIGURATION.md documents it with this default. For example
 * {@code static final Setting<Integer> MAX_IN_FLIGHT = Setting.integer("max.in.flight", 1_000, 1, 100_000, "...")}
 * read by {@code reader.get(MAX_IN_FLIGHT)}.
 *
 * @param key the key, as in a settings file ({@code HEALTHMESH_<KEY>} in the environment)
 * @param defaultValue the default as the docs show it, {@code null} for none
 * @param range the accepted values as the docs show them
 * @param doc what the setting does
 * @param expected the accepted values as an error message says them (the range without the docs' remarks)
 * @param reading how a value is read: built by the factories
 * @param <T> the type of the value
 */
public record Setting<T>(String key, String defaultValue, String range, String doc, String expected,
                         Reading<T> reading) {

    /** How a value is read: the value when absent, whether one is required, the parser and the check. */
    record Reading<T>(T fallback, boolean required, Function<String, T> parse, Predicate<T> valid) {
    }

    public Setting {
        requireNonNull(key, "key");
        requireNonNull(range, "range");
        requireNonNull(doc, "doc");
        requireNonNull(expected, "expected");
        requireNonNull(reading, "reading");
    }

    private static <T> Setting<T> of(String key, String shown, T fallback, String expected, Function<String, T> parse,
                                     Predicate<T> valid, String doc) {
        return new Setting<>(key, shown, expected, doc, expected, new Reading<>(fallback, false, parse, valid));
    }

    /**
     * A value of any type: {@code parse} turns the trimmed text into one (or throws {@link IllegalArgumentException}),
     * {@code valid} accepts it, {@code expected} says what is accepted. The docs show the default as
     * {@code String.valueOf(defaultValue)}.
     */
    public static <T> Setting<T> of(String key, T defaultValue, String expected, Function<String, T> parse,
                                    Predicate<T> valid, String doc) {
        return of(key, defaultValue == null ? null : String.valueOf(defaultValue), defaultValue, expected, parse, valid,
                doc);
    }

    /** An integer in {@code min..max}. */
    public static Setting<Integer> integer(String key, int defaultValue, int min, int max, String doc) {
        return of(key, defaultValue, min + ".." + max, Integer::valueOf, v -> v >= min && v <= max, doc);
    }

    /** A long integer in {@code min..max}. */
    public static Setting<Long> longInteger(String key, long defaultValue, long min, long max, String doc) {
        return of(key, defaultValue, min + ".." + max, Long::valueOf, v -> v >= min && v <= max, doc);
    }

    /** A number in {@code min..max}. */
    public static Setting<Double> decimal(String key, double defaultValue, double min, double max, String doc) {
        return of(key, defaultValue, min + ".." + max, Double::valueOf, v -> v >= min && v <= max, doc);
    }

    /** A number in {@code 0..1}. */
    public static Setting<Double> fraction(String key, double defaultValue, String doc) {
        return of(key, defaultValue, "0..1", Double::valueOf, v -> v >= 0 && v <= 1, doc);
    }

    /** {@code true} or {@code false}, in any case. */
    public static Setting<Boolean> bool(String key, boolean defaultValue, String doc) {
        return of(key, defaultValue, "true or false", Setting::parseBool, v -> true, doc);
    }

    /** Any text (trimmed); {@code defaultValue} may be {@code null} (no default) or empty. */
    public static Setting<String> text(String key, String defaultValue, String range, String doc) {
        return of(key, defaultValue, range, v -> v, v -> true, doc);
    }

    /** Text that must be given and not empty ({@code range} is what the docs show). */
    public static Setting<String> required(String key, String range, String doc) {
        return new Setting<>(key, null, range, doc, "a value, this setting is required",
                new Reading<>("", true, v -> v, v -> !v.isEmpty()));
    }

    /** Text matching {@code pattern}, described by {@code range}. */
    public static Setting<String> matching(String key, String defaultValue, Pattern pattern, String range,
                                           String doc) {
        return of(key, defaultValue, range, v -> v, v -> pattern.matcher(v).matches(), doc);
    }

    /** One of {@code allowed}. */
    public static Setting<String> oneOf(String key, String defaultValue, List<String> allowed, String doc) {
        return of(key, defaultValue, String.join(" or ", allowed), v -> v, allowed::contains, doc);
    }

    /** A value of this setting's type that also passes {@code check} (a value failing it is reported like any). */
    public Setting<T> and(Predicate<T> check) {
        return new Setting<>(key, defaultValue, range, doc, expected, new Reading<>(reading.fallback(),
                reading.required(), reading.parse(), reading.valid().and(check)));
    }

    /** The same setting with a remark that the documentation adds to its range, e.g. {@code 0 = any free port}. */
    public Setting<T> noting(String remark) {
        return new Setting<>(key, defaultValue, expected + " (" + remark + ")", doc, expected, reading);
    }

    /**
     * The same setting whose default the documentation shows as {@code shown} (such as {@code <hostname>-<pid>} for
     * one computed at start, read with {@link SettingsReader#get(Setting, Object)}) and, when not {@code null},
     * whose range it shows as {@code range}.
     */
    public Setting<T> documentedAs(String shown, String range) {
        return new Setting<>(key, shown, range == null ? this.range : range, doc, expected, reading);
    }

    /**
     * The value in {@code settings} (trimmed), or the default when absent: for a parser shared by several roles that
     * reads a plain map ({@link HttpLimits}, {@link HttpOptions}); a role reads with {@link SettingsReader#get}.
     *
     * @throws IllegalArgumentException {@code key: value (expected: ...)} when the value is not one this accepts
     */
    public T readFrom(Map<String, String> settings) {
        String text = settings.get(key);
        if (text == null) {
            return reading.fallback();
        }
        T value = parse(text.trim());
        if (value == null) {
            throw new IllegalArgumentException(key + ": " + (text.isBlank() ? "\"\"" : text.trim()) + " (expected: "
                    + expected + ")");
        }
        return value;
    }

    /**
     * {@code value} when this setting accepts it: for a record built in code to hold the same bounds as the
     * settings it is read from.
     *
     * @throws IllegalArgumentException {@code key: value (expected: ...)} otherwise
     */
    public T check(T value) {
        if (value == null || !reading.valid().test(value)) {
            throw new IllegalArgumentException(key + ": " + value + " (expected: " + expected + ")");
        }
        return value;
    }

    /** The value of {@code text} (trimmed), or {@code null} when it is not one this setting accepts. */
    T parse(String text) {
        try {
            T value = reading.parse().apply(text);
            return value != null && reading.valid().test(value) ? value : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Boolean parseBool(String v) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(v);
    }
}
