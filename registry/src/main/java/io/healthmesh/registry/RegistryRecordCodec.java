package io.healthmesh.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.RegistryRecord;
import io.healthmesh.contract.registry.RegistryRecord.Config;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersion;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersionRemoved;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Registry records as Kafka key/value bytes, in Confluent's {@code _schemas} format: key
 * {@code {"keytype":"SCHEMA","subject":..,"version":..,"magic":1}} with value
 * {@code {"subject","version","id","schema","deleted"}}, key {@code {"keytype":"CONFIG","subject":..,"magic":0}}
 * with value {@code {"compatibilityLevel":..}}; a null value (tombstone) removes the key. One key per
 * subject version and per config, so compaction keeps exactly what a replay needs.
 */
final class RegistryRecordCodec {

    /** A record as Kafka key and value bytes; {@code value} null is a tombstone. */
    record KeyValue(byte[] key, byte[] value) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistryRecordCodec() {
    }

    static KeyValue encode(RegistryRecord record) {
        if (record instanceof SchemaVersion v) {
            ObjectNode value = JSON.createObjectNode();
            value.put("subject", v.subject());
            value.put("version", v.version());
            value.put("id", v.id());
            value.put("schema", v.schema());
            value.put("deleted", v.deleted());
            return new KeyValue(schemaKey(v.subject(), v.version()), bytes(value));
        }
        if (record instanceof SchemaVersionRemoved removed) {
            return new KeyValue(schemaKey(removed.subject(), removed.version()), null);
        }
        Config config = (Config) record;
        ObjectNode key = JSON.createObjectNode();
        key.put("keytype", "CONFIG");
        key.put("subject", config.subject());
        key.put("magic", 0);
        if (config.level() == null) {
            return new KeyValue(bytes(key), null);
        }
        ObjectNode value = JSON.createObjectNode();
        value.put("compatibilityLevel", config.level().name());
        return new KeyValue(bytes(key), bytes(value));
    }

    /**
     * Reads a record back; empty for key types this registry does not use (Confluent's NOOP, MODE,
     * DELETE_SUBJECT...), which a replay skips.
     *
     * @throws IllegalArgumentException when the bytes are not a registry record
     */
    static Optional<RegistryRecord> decode(byte[] keyBytes, byte[] valueBytes) {
        JsonNode key = tree(keyBytes, "key");
        String keyType = key.path("keytype").asText();
        JsonNode subjectNode = key.get("subject");
        String subject = subjectNode == null || subjectNode.isNull() ? null : subjectNode.asText();
        switch (keyType) {
            case "SCHEMA" -> {
                if (subject == null || !key.path("version").canConvertToInt()) {
                    throw new IllegalArgumentException("SCHEMA key without subject or version: " + key);
                }
                int version = key.get("version").asInt();
                if (valueBytes == null) {
                    return Optional.of(new SchemaVersionRemoved(subject, version));
                }
                JsonNode value = tree(valueBytes, "value");
                if (!value.path("id").canConvertToInt() || !value.path("schema").isTextual()) {
                    throw new IllegalArgumentException("SCHEMA value without id or schema: " + value);
                }
                return Optional.of(new SchemaVersion(subject, version, value.get("id").asInt(),
                        value.get("schema").asText(), value.path("deleted").asBoolean(false)));
            }
            case "CONFIG" -> {
                if (valueBytes == null) {
                    return Optional.of(new Config(subject, null));
                }
                JsonNode value = tree(valueBytes, "value");
                return Optional.of(new Config(subject, CompatibilityLevel.parse(value.path("compatibilityLevel").asText(null))));
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    private static byte[] schemaKey(String subject, int version) {
        ObjectNode key = JSON.createObjectNode();
        key.put("keytype", "SCHEMA");
        key.put("subject", subject);
        key.put("version", version);
        key.put("magic", 1);
        return bytes(key);
    }

    private static byte[] bytes(ObjectNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode tree(byte[] bytes, String what) {
        if (bytes == null) {
            throw new IllegalArgumentException(what + ": null");
        }
        try {
            JsonNode node = JSON.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(what + ": not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": not JSON (" + e.getMessage() + ")", e);
        }
    }
}
