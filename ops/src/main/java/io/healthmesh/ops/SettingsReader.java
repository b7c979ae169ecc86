package io.healthmesh.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The one way every role reads its settings: typed reads of the role's declared {@link Setting}s ({@link #get}), every
 * problem gathered rather than the first thrown, unknown keys refused (except {@code kafka.*}, passed through to the
 * Kafka clients), and one message format, {@code key: value (expected: ...)}. {@link #finish()} throws
 * {@link InvalidSettingsException} listing them all.
 */
public final class SettingsReader {

    private final String role;
    private final Map<String, String> settings;
    private final Set<String> declared;
    private final List<String> problems = new ArrayList<>();
    private final List<Predicate<String>> families = new ArrayList<>();

    /**
     * @param role the role's name as the messages show it, e.g. {@code prober}
     * @param settings what {@link Settings#load} gathered
     * @param declared every setting the role accepts besides {@code kafka.*}
     */
    public SettingsReader(String role, Map<String, String> settings, List<? extends Setting<?>> declared) {
        this.role = requireNonNull(role, "role");
        this.settings = Map.copyOf(requireNonNull(settings, "settings"));
        this.declared = declared.stream().map(Setting::key).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The value of {@code setting}: its default when absent; when invalid, its default and a problem
     * {@code key: value (expected: ...)}; when required and absent or empty, a problem (and an empty value).
     */
    public <T> T get(Setting<T> setting) {
        return get(setting, setting.reading().fallback());
    }

    /**
     * The value of {@code setting}, or {@code fallback} when absent or invalid: for a default computed at start
     * (the setting declares how the docs show it).
     */
    public <T> T get(Setting<T> setting, T fallback) {
        String v = optional(setting.key());
        if (setting.reading().required() && (v == null || v.isEmpty())) {
            problems.add(setting.key() + ": missing (expected: " + setting.expected() + ")");
            return fallback;
        }
        if (v == null) {
            return fallback;
        }
        T value = setting.parse(v);
        if (value == null) {
            problem(setting, v);
            return fallback;
        }
        return value;
    }

    /**
     * The trimmed text of {@code setting}, or {@code null} when absent: for a value the role parses itself (a list,
     * an address), reporting what it refuses with {@link #problem(Setting, String)}.
     */
    public String text(Setting<?> setting) {
        return optional(setting.key());
    }

    /** Records that {@code value} is not one {@code setting} accepts: {@code key: value (expected: ...)}. */
    public void problem(Setting<?> setting, String value) {
        problem(setting.key(), value, setting.expected());
    }

    /**
     * Also accepts the keys of a family that a shared parser reads and documents in a section of its own (the HTTP
     * servers' {@code HttpOptions}, the registry client's {@code schema.registry.ssl.*}).
     */
    public SettingsReader accepting(Predicate<String> family) {
        families.add(family);
        return this;
    }

    private String optional(String key) {
        String v = settings.get(key);
        return v == null ? null : v.trim();
    }

    /** Records a problem with a value. */
    public void problem(String key, String value, String expected) {
        problems.add(key + ": " + (value.isEmpty() ? "\"\"" : value) + " (expected: " + expected + ")");
    }

    /** Records a problem found by a check of the caller's own, already in {@code key: ...} form. */
    public void problem(String message) {
        problems.add(message);
    }

    /** Every setting as given, for a parser of a family ({@link HttpOptions#read}). */
    Map<String, String> settings() {
        return settings;
    }

    /** The {@code kafka.*} settings with the prefix removed, for the Kafka clients. */
    public Map<String, String> kafka() {
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put(k.toString(), v.toString()));
        return kafka;
    }

    /**
     * Ends the reading: refuses unknown keys, then throws when anything was wrong.
     *
     * @throws InvalidSettingsException listing every problem
     */
    public void finish() {
        new TreeMap<>(settings).keySet().stream()
                .filter(k -> !declared.contains(k) && !k.startsWith(Settings.KAFKA_PREFIX)
                        && families.stream().noneMatch(f -> f.test(k)))
                .forEach(k -> problems.add(k + ": unknown setting (expected: a key of docs/CONFIGURATION.md \"## "
                        + Character.toUpperCase(role.charAt(0)) + role.substring(1)
                        + "\", or kafka.<Kafka client property>)"));
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(role, problems);
        }
    }
}
