package io.healthmesh.contract.target;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.core.target.Violation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Typed, field-by-field reading of one object of a target file. Every problem is recorded as a {@link Violation}
 * (the same shape as the validator's) and a default is returned, so that one pass finds every mistake.
 */
final class TargetFields {

    private final String prefix;
    private final JsonNode node;
    private final List<Violation> problems;

    TargetFields(String prefix, JsonNode node, List<Violation> problems) {
        this.prefix = prefix;
        this.node = node;
        this.problems = problems;
    }

    /** Records every field of the object that is not in {@code known}. */
    void rejectUnknown(Set<String> known) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                problems.add(new Violation(prefix + name, "unknown field (expected one of: "
                        + String.join(", ", known) + ")"));
            }
        }
    }

    boolean has(String name) {
        return node.has(name) && !node.get(name).isNull();
    }

    String path(String name) {
        return prefix + name;
    }

    String string(String name, String fallback) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isValueNode()) {
            // YAML turns unquoted 8080 or true into numbers and booleans; a text field still means the text
            return v.asText();
        }
        problems.add(new Violation(path(name), describe(v) + " (expected: a string)"));
        return fallback;
    }

    /** An integer that may be absent ({@code null}); no profile default stands in for it. */
    Integer optionalInteger(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        return integer(name, 0);
    }

    int integer(String name, int fallback) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            return v.intValue();
        }
        problems.add(new Violation(path(name), describe(v) + " (expected: an integer)"));
        return fallback;
    }

    boolean bool(String name, boolean fallback) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        problems.add(new Violation(path(name), describe(v) + " (expected: true or false)"));
        return fallback;
    }

    /** An enum constant, case-insensitive; {@code null} when the field is absent and there is no fallback. */
    <E extends Enum<E>> E enumValue(String name, Class<E> type, E fallback) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        E[] constants = type.getEnumConstants();
        if (v.isTextual()) {
            String wanted = v.textValue().trim().toUpperCase(Locale.ROOT);
            for (E c : constants) {
                if (c.name().equals(wanted)) {
                    return c;
                }
            }
        }
        problems.add(new Violation(path(name), describe(v) + " (expected: one of "
                + String.join(", ", Arrays.stream(constants).map(Enum::name).toList()) + ")"));
        return fallback;
    }

    List<String> strings(String name, List<String> fallback) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isArray()) {
            problems.add(new Violation(path(name), describe(v) + " (expected: a list)"));
            return fallback;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            if (item.isValueNode() && !item.isNull()) {
                out.add(item.asText());
            } else {
                problems.add(new Violation(path(name) + "[" + i + "]", describe(item) + " (expected: a string)"));
            }
        }
        return out;
    }

    Map<String, String> stringMap(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            problems.add(new Violation(path(name), describe(v) + " (expected: a map of names to strings)"));
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        v.fields().forEachRemaining(e -> {
            JsonNode item = e.getValue();
            if (item.isValueNode() && !item.isNull()) {
                out.put(e.getKey(), item.asText());
            } else {
                problems.add(new Violation(path(name) + "[" + e.getKey() + "]",
                        describe(item) + " (expected: a string)"));
            }
        });
        return out;
    }

    /** The nested object {@code name}, or {@code null} when absent, null or not an object (then recorded). */
    TargetFields section(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            problems.add(new Violation(path(name), describe(v) + " (expected: a map of fields)"));
            return null;
        }
        return new TargetFields(path(name) + ".", v, problems);
    }

    /** A short rendering of a value for a message: its text when scalar, its kind otherwise. */
    static String describe(JsonNode v) {
        if (v == null || v.isNull()) {
            return "null";
        }
        if (v.isTextual()) {
            String text = v.textValue();
            return "\"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
        }
        if (v.isValueNode()) {
            return v.asText();
        }
        return v.isArray() ? "a list" : "a map";
    }
}
