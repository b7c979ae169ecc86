package io.healthmesh.ops.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * A role's own YAML or JSON file being read (the DNS and HAProxy mappings, the notifier's routes): the problems
 * found so far and the checks every such file applies, so that each file reports every problem at once, in the same
 * words ({@code records[0].zone: missing (expected: a value, this field is required)}). A reader of one file kind
 * holds one and adds the checks of its own fields.
 */
public final class RoleFile {

    /** How much of a value a problem quotes. */
    private static final int SHOWN_CHARACTERS = 80;

    private final String kind;
    private final List<String> problems = new ArrayList<>();

    /**
     * @param kind what the file is, for messages ({@code mapping file}, {@code route file})
     */
    public RoleFile(String kind) {
        this.kind = requireNonNull(kind, "kind");
    }

    /**
     * The text of the file a setting names.
     *
     * @param setting the setting naming the file ({@code mapping.file})
     * @throws IllegalArgumentException when the file is missing or cannot be read
     */
    public static String readText(Path file, String setting, String kind) {
        requireNonNull(file, "file");
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(setting + ": " + file + " (expected: an existing " + kind + ")", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(setting + ": " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The document tree of YAML or JSON text (YAML reads both).
     *
     * @throws IllegalArgumentException when the text is neither, with the parser's reason and line
     */
    public static JsonNode parse(ObjectMapper yaml, String text, String kind) {
        try {
            return yaml.readTree(text);
        } catch (JsonProcessingException e) {
            throw notYaml(e, kind);
        }
    }

    /** {@link #parse(ObjectMapper, String, String)} with a YAML mapper of its own. */
    public static JsonNode parse(String text, String kind) {
        return parse(new ObjectMapper(new YAMLFactory()), text, kind);
    }

    /** The error for text that is neither YAML nor JSON: the parser's reason and line. */
    public static IllegalArgumentException notYaml(JsonProcessingException e, String kind) {
        return new IllegalArgumentException(kind + ": not YAML or JSON (" + e.getOriginalMessage() + " at line "
                + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + ")", e);
    }

    /** Records a problem, already in the form {@code path: value (expected: ...)}. */
    public void problem(String message) {
        problems.add(message);
    }

    /** The problems found so far, in the order found. */
    public List<String> problems() {
        return Collections.unmodifiableList(problems);
    }

    /**
     * Fails when any problem was found.
     *
     * @throws IllegalArgumentException {@code invalid <kind>: } and every problem, separated by {@code "; "}
     */
    public void requireValid() {
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid " + kind + ": " + String.join("; ", problems));
        }
    }

    /**
     * A text field: trimmed; {@code defaultValue} when absent, and a problem too when it has none (a required field);
     * a problem, and {@code defaultValue}, when it is blank or not a single value.
     *
     * @param at where {@code node} is ({@code routes[2]})
     */
    public String text(JsonNode node, String field, String at, String defaultValue) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (defaultValue == null) {
                problem(at + "." + field + ": missing (expected: a value, this field is required)");
            }
            return defaultValue;
        }
        if (!v.isValueNode() || v.asText().isBlank()) {
            problem(at + "." + field + ": " + shown(v) + " (expected: a non-empty text)");
            return defaultValue;
        }
        return v.asText().trim();
    }

    /**
     * A problem for every field of {@code node} that is not {@code known} (a misspelt field must not pass for an
     * absent one).
     *
     * @param prefix what goes before each field's name ({@code routes[2].}, or nothing at the top)
     */
    public void unknownFields(JsonNode node, Set<String> known, String prefix) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                problem(prefix + field + ": unknown field (expected: one of " + new TreeSet<>(known) + ")");
            }
        }
    }

    /** A value as a problem quotes it: its text, or {@code missing}, cut at 80 characters. */
    public static String shown(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return "missing";
        }
        String s = node.isValueNode() ? node.asText() : node.toString();
        return s.length() > SHOWN_CHARACTERS ? s.substring(0, SHOWN_CHARACTERS) + "..." : s;
    }
}
