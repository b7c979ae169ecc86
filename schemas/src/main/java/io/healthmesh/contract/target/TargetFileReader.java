package io.healthmesh.contract.target;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.healthmesh.core.target.TargetSpec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads target definitions from YAML or JSON files and validates every one of them before anything is sent.
 * A file holds a list of targets, a map with a {@code targets:} list, or one target; YAML files may hold several
 * documents. Every problem is reported with the file, the target (its id, or its position when it has none) and
 * the field, so that one run shows everything to fix.
 */
public final class TargetFileReader {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

    private TargetFileReader() {
    }

    /**
     * One valid target, where it came from, and its definition's Avro body as the targets topic holds it
     * ({@link TargetSpecs#encode}): encoded once, for the size check and then for the write.
     */
    public record Entry(String source, int position, TargetSpec spec, byte[] encoded) {
    }

    /** What the files hold: the targets when all are valid, and every error otherwise. */
    public record Batch(List<Entry> entries, List<String> errors) {

        public Batch {
            entries = List.copyOf(entries);
            errors = List.copyOf(errors);
        }

        public boolean valid() {
            return errors.isEmpty();
        }

        public List<TargetSpec> specs() {
            return entries.stream().map(Entry::spec).toList();
        }
    }

    /** Reads and validates every file; {@code -} reads standard input as YAML. */
    public static Batch read(List<Path> files, InputStream stdin) {
        List<Entry> entries = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Path file : files) {
            String source = file.toString();
            try {
                String text = file.toString().equals("-")
                        ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(file, StandardCharsets.UTF_8);
                readText(source, text, isJson(file) ? JSON : YAML, entries, errors);
            } catch (NoSuchFileException e) {
                errors.add(source + ": file not found");
            } catch (IOException e) {
                errors.add(source + ": cannot read: " + e.getMessage());
            }
        }
        checkUniqueIds(entries, errors);
        if (entries.isEmpty() && errors.isEmpty()) {
            errors.add(String.join(", ", files.stream().map(Path::toString).toList()) + ": no targets found");
        }
        return new Batch(errors.isEmpty() ? entries : List.of(), errors);
    }

    /** Reads and validates the definitions in {@code text}, named {@code source} in messages. */
    public static Batch readText(String source, String text, boolean json) {
        List<Entry> entries = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        readText(source, text, json ? JSON : YAML, entries, errors);
        checkUniqueIds(entries, errors);
        return new Batch(errors.isEmpty() ? entries : List.of(), errors);
    }

    private static boolean isJson(Path file) {
        return file.getFileName() != null && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
    }

    private static void readText(String source, String text, ObjectMapper mapper, List<Entry> entries,
                                 List<String> errors) {
        List<String> shapeErrors = new ArrayList<>();
        List<TargetChecks.Checked> checked;
        // one root value per YAML document (or concatenated JSON value); MappingIterator would unwrap a root list
        try (TargetChecks checks = new TargetChecks(source); JsonParser parser = mapper.createParser(text)) {
            while (parser.nextToken() != null) {
                if (parser.currentToken() == JsonToken.START_ARRAY) {
                    // a list of targets: one target's tree at a time, checked while the next ones are parsed
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        if (parser.currentToken() == null) {
                            throw new JsonParseException(parser, "unexpected end of input in a list of targets");
                        }
                        JsonNode target = mapper.readTree(parser);
                        checks.add(target == null ? NullNode.getInstance() : target);
                    }
                } else if (!collect(source, mapper.readTree(parser), checks::add, shapeErrors)) {
                    break;
                }
            }
            checked = shapeErrors.isEmpty() ? checks.results() : List.of();
        } catch (JsonProcessingException e) {
            // a file that does not parse reports that alone, as before any target of it was checked
            errors.add(source + ": " + where(e.getLocation()) + "not valid " + (mapper == JSON ? "JSON" : "YAML")
                    + ": " + e.getOriginalMessage());
            return;
        } catch (IOException e) {
            errors.add(source + ": cannot read: " + e.getMessage());
            return;
        }
        if (!shapeErrors.isEmpty()) {
            errors.addAll(shapeErrors);
            return;
        }
        for (TargetChecks.Checked c : checked) {
            if (c.entry() != null) {
                entries.add(c.entry());
            }
            errors.addAll(c.errors());
        }
    }

    /** Adds the targets of one document; false (after recording why) when its shape is wrong. */
    private static boolean collect(String source, JsonNode document, Consumer<JsonNode> targets,
                                   List<String> errors) {
        if (document == null || document.isNull() || document.isMissingNode()) {
            return true;
        }
        if (document.isArray()) {
            document.forEach(targets);
            return true;
        }
        if (document.isObject() && document.has("targets") && document.size() == 1) {
            JsonNode list = document.get("targets");
            if (!list.isArray()) {
                errors.add(source + ": targets: " + TargetFields.describe(list) + " (expected: a list of targets)");
                return false;
            }
            list.forEach(targets);
            return true;
        }
        if (document.isObject()) {
            targets.accept(document);
            return true;
        }
        errors.add(source + ": " + TargetFields.describe(document)
                + " (expected: a list of targets, a map with a 'targets' list, or one target)");
        return false;
    }

    private static void checkUniqueIds(List<Entry> entries, List<String> errors) {
        Map<String, Entry> seen = new HashMap<>();
        for (Entry e : entries) {
            Entry first = seen.putIfAbsent(e.spec().id(), e);
            if (first != null) {
                errors.add(e.source() + ": " + label(e.spec().id(), e.position()) + ": id: \"" + e.spec().id()
                        + "\" twice (expected: unique ids; first in " + first.source() + " target #"
                        + first.position() + ")");
            }
        }
    }

    static String label(String id, int position) {
        return id == null || id.isEmpty() ? "target #" + position : "target " + id;
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
    }

}
