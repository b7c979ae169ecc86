package io.healthmesh.cli.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.healthmesh.cli.BadInputException;
import io.healthmesh.contract.target.TargetFileReader;
import io.healthmesh.core.target.TargetSpec;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one definition {@code healthmesh probe} runs, read and validated exactly as {@code targets apply} reads and
 * validates definitions ({@link TargetFileReader}): from files with {@code --id}, or from flags, which become a
 * definition object in the file format (field names of the contract, {@code --set section.field=value} for any
 * field, so a protocol's own section needs no flag of its own) read by the same reader.
 */
final class ProbeDefinition {

    /** The id of a definition given by flags without {@code --id}. */
    static final String DEFAULT_ID = "cli-probe";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    private ProbeDefinition() {
    }

    /** The target {@code id} of {@code files} (or their only target when {@code id} is null); all must be valid. */
    static TargetSpec fromFiles(List<Path> files, String id, InputStream stdin) {
        TargetFileReader.Batch batch = TargetFileReader.read(files, stdin);
        if (!batch.valid()) {
            throw new BadInputException(batch.errors().size() + " problem(s) found in the definitions",
                    batch.errors());
        }
        List<TargetSpec> specs = batch.specs();
        if (id == null) {
            if (specs.size() == 1) {
                return specs.get(0);
            }
            throw new BadInputException("the files hold " + specs.size() + " targets: name one with --id",
                    List.of("ids: " + String.join(", ", specs.stream().map(TargetSpec::id).toList())));
        }
        return specs.stream().filter(s -> s.id().equals(id)).findFirst()
                .orElseThrow(() -> new BadInputException("no target with id " + id + " in the files",
                        List.of("ids: " + String.join(", ", specs.stream().map(TargetSpec::id).toList()))));
    }

    /**
     * The target the flags describe: {@code fields} (contract field name, or {@code section.field}, to a value;
     * null values left out) then each {@code FIELD=VALUE} of {@code sets}, the value read as a YAML scalar or list.
     */
    static TargetSpec fromFlags(Map<String, Object> fields, List<String> sets) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        fields.forEach((field, value) -> {
            if (value != null) {
                put(root, field, value instanceof JsonNode node ? node : JSON.valueToTree(value));
            }
        });
        for (String set : sets) {
            int eq = set.indexOf('=');
            if (eq <= 0) {
                throw new BadInputException("--set " + set + ": expected FIELD=VALUE, e.g. http.path=/ready");
            }
            put(root, set.substring(0, eq).trim(), scalar(set.substring(eq + 1)));
        }
        if (!root.has("id")) {
            root.put("id", DEFAULT_ID);
        }
        if (root.has("protocol") && root.get("protocol").isTextual()) {
            root.put("protocol", root.get("protocol").asText().toUpperCase(Locale.ROOT));
        }
        String text;
        try {
            text = JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the definition of the flags", e);
        }
        TargetFileReader.Batch batch = TargetFileReader.readText("command line", text, true);
        if (!batch.valid()) {
            throw new BadInputException(batch.errors().size() + " problem(s) found in the definition",
                    batch.errors());
        }
        return batch.specs().get(0);
    }

    /** Sets {@code path} ({@code field} or {@code section.field}) in {@code root}. */
    private static void put(ObjectNode root, String path, JsonNode value) {
        String[] parts = path.split("\\.", -1);
        if (parts.length > 2 || path.isEmpty() || List.of(parts).contains("")) {
            throw new BadInputException("--set " + path + ": expected a field or section.field, e.g. http.path");
        }
        ObjectNode at = root;
        if (parts.length == 2) {
            JsonNode section = root.get(parts[0]);
            at = section instanceof ObjectNode object ? object : root.putObject(parts[0]);
        }
        at.set(parts[parts.length - 1], value);
    }

    /** {@code true}, {@code 5}, {@code [2xx, 301]} as such; anything YAML cannot read as a value stays text. */
    private static JsonNode scalar(String text) {
        try {
            JsonNode node = YAML.readTree(text);
            return node == null || node.isMissingNode() || node.isObject() ? TextNode.valueOf(text) : node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
