package io.healthmesh.haproxy.mapping;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.healthmesh.haproxy.runtime.RuntimeAddress;
import io.healthmesh.ops.file.RoleFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;


/**
 * Reads and validates the mapping file (YAML, or JSON). Unknown fields are refused, defaults applied, and every
 * problem is reported at once as {@code line N: backends[i].field: value (expected: ...)}. The format is in
 * docs/CONFIGURATION.md, "HAProxy mapping file".
 */
public final class MappingFile {

    public static final int MAX_INSTANCES = 16;
    public static final int MAX_BACKENDS = 1000;
    /** HAProxy's proxy names take letters, digits and {@code - _ . :}. */
    private static final Pattern BACKEND = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");
    private static final Pattern LABEL = Pattern.compile("[^\\p{Cntrl}]{1,128}");
    private static final Pattern GROUP = Pattern.compile("[^\\p{Cntrl}]{1,255}");
    private static final Set<String> TOP_FIELDS = Set.of("instances", "backends");
    private static final Set<String> BACKEND_FIELDS = Set.of("group", "backend", "serverName", "weightLabel");

    private final List<String> problems = new ArrayList<>();
    private final Map<String, Integer> lines;

    private MappingFile(Map<String, Integer> lines) {
        this.lines = lines;
    }

    /**
     * Reads the mapping of a file.
     *
     * @throws IllegalArgumentException when the file is missing, unreadable or invalid, listing every problem
     */
    public static HaproxyMapping load(Path file) {
        return parse(RoleFile.readText(file, "mapping.file", "mapping file"));
    }

    /**
     * Parses mapping file text.
     *
     * @throws IllegalArgumentException listing every problem, separated by {@code "; "}
     */
    public static HaproxyMapping parse(String text) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode root;
        Map<String, Integer> lines;
        try {
            root = yaml.readTree(text);
            lines = lines(yaml, text);
        } catch (JsonProcessingException e) {
            throw RoleFile.notYaml(e, "mapping file");
        } catch (IOException e) {
            throw new IllegalArgumentException("mapping file: " + e.getMessage(), e);
        }
        MappingFile reader = new MappingFile(lines);
        HaproxyMapping mapping = reader.mapping(root);
        if (!reader.problems.isEmpty()) {
            throw new IllegalArgumentException("invalid mapping file: " + String.join("; ", reader.problems));
        }
        return mapping;
    }

    /** The line of every field and list item, by JSON pointer ({@code /backends/0/group}). */
    private static Map<String, Integer> lines(ObjectMapper yaml, String text) throws IOException {
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser p = yaml.getFactory().createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t != JsonToken.FIELD_NAME && t != JsonToken.END_OBJECT && t != JsonToken.END_ARRAY) {
                    lines.putIfAbsent(p.getParsingContext().pathAsPointer().toString(),
                            p.currentTokenLocation().getLineNr());
                }
            }
        }
        return lines;
    }

    private HaproxyMapping mapping(JsonNode root) {
        if (root == null || !root.isObject()) {
            problem("", "mapping file: " + RoleFile.shown(root) + " (expected: a mapping with instances and backends)");
            return null;
        }
        unknownFields(root, TOP_FIELDS, "");
        return new HaproxyMapping(instances(root.get("instances")), backends(root.get("backends")));
    }

    private List<RuntimeAddress> instances(JsonNode list) {
        List<RuntimeAddress> instances = new ArrayList<>();
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > MAX_INSTANCES) {
            problem("/instances", "instances: " + RoleFile.shown(list) + " (expected: a list of 1.." + MAX_INSTANCES
                    + " Runtime API sockets)");
            return instances;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String at = "instances[" + i + "]";
            if (!item.isTextual() || item.asText().isBlank()) {
                problem("/instances/" + i, at + ": " + RoleFile.shown(item) + " (expected: " + RuntimeAddress.EXPECTED + ")");
                continue;
            }
            try {
                RuntimeAddress address = RuntimeAddress.parse(item.asText().trim());
                if (!seen.add(address.toString())) {
                    problem("/instances/" + i, at + ": " + address + " (expected: an instance no other entry names)");
                } else {
                    instances.add(address);
                }
            } catch (IllegalArgumentException e) {
                problem("/instances/" + i, at + ": " + e.getMessage());
            }
        }
        return instances;
    }

    private List<BackendMapping> backends(JsonNode list) {
        List<BackendMapping> backends = new ArrayList<>();
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > MAX_BACKENDS) {
            problem("/backends", "backends: " + RoleFile.shown(list) + " (expected: a list of 1.." + MAX_BACKENDS
                    + " backend mappings)");
            return backends;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            BackendMapping b = backend(list.get(i), i);
            if (b != null && !seen.add(b.backend())) {
                problem("/backends/" + i + "/backend", "backends[" + i + "].backend: " + b.backend()
                        + " (expected: a backend no other entry names: one group feeds a backend)");
            } else if (b != null) {
                backends.add(b);
            }
        }
        return backends;
    }

    private BackendMapping backend(JsonNode node, int i) {
        String at = "backends[" + i + "]";
        String pointer = "/backends/" + i;
        if (!node.isObject()) {
            problem(pointer, at + ": " + RoleFile.shown(node) + " (expected: a mapping with group and backend)");
            return null;
        }
        int before = problems.size();
        unknownFields(node, BACKEND_FIELDS, pointer);
        String group = text(node, "group", pointer, GROUP, "1-255 characters, no control characters", null);
        String backend = text(node, "backend", pointer, BACKEND, "1-100 of [A-Za-z0-9_.:-], a backend of haproxy.cfg",
                null);
        String template = text(node, "serverName", pointer, null, null, BackendMapping.DEFAULT_SERVER_NAME);
        if (template != null && !ServerNames.validTemplate(template)) {
            problem(pointer + "/serverName", at + ".serverName: " + template + " (expected: " + ServerNames.ID
                    + " once, and at most " + ServerNames.MAX_TEMPLATE_TEXT + " more of [A-Za-z0-9_.:-])");
        }
        String weightLabel = text(node, "weightLabel", pointer, LABEL, "a label key, 1-128 characters", "");
        if (problems.size() > before || group == null || backend == null) {
            return null;
        }
        return new BackendMapping(group, backend, template, weightLabel.isEmpty() ? null : weightLabel);
    }

    /** A required ({@code defaultValue == null}) or optional text field, checked against {@code pattern}. */
    private String text(JsonNode node, String field, String pointer, Pattern pattern, String expected,
                        String defaultValue) {
        JsonNode v = node.get(field);
        String at = path(pointer) + "." + field;
        if (v == null || v.isNull()) {
            if (defaultValue == null) {
                problem(pointer, at + ": missing (expected: a value, this field is required)");
            }
            return defaultValue;
        }
        String text = v.isValueNode() ? v.asText().trim() : "";
        if (text.isEmpty()) {
            problem(pointer + "/" + field, at + ": " + RoleFile.shown(v) + " (expected: a non-empty text)");
            return defaultValue;
        }
        if (pattern != null && !pattern.matcher(text).matches()) {
            problem(pointer + "/" + field, at + ": " + RoleFile.shown(v) + " (expected: " + expected + ")");
            return defaultValue;
        }
        return text;
    }

    private void unknownFields(JsonNode node, Set<String> known, String pointer) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                String at = pointer.isEmpty() ? field : path(pointer) + "." + field;
                problem(pointer + "/" + field, at + ": unknown field (expected: one of " + new TreeSet<>(known) + ")");
            }
        }
    }

    /** Records a problem, prefixed by the line of the nearest known place at or above {@code pointer}. */
    private void problem(String pointer, String message) {
        Integer line = null;
        for (String p = pointer; line == null; p = p.substring(0, Math.max(0, p.lastIndexOf('/')))) {
            line = lines.get(p);
            if (p.isEmpty()) {
                break;
            }
        }
        problems.add(line == null ? message : "line " + line + ": " + message);
    }

    /** {@code /backends/2} as {@code backends[2]}. */
    private static String path(String pointer) {
        return pointer.substring(1).replaceAll("/(\\d+)", "[$1]").replace('/', '.');
    }
}
