package io.healthmesh.prober.assign;

import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Turns the raw key and value of a targets record into a {@link DefinitionVerdict}: decoded with the Avro
 * serde, mapped to the domain and validated by {@link TargetValidator}. Never throws for bad input.
 */
final class DefinitionReader {

    static final String INVALID_DEFINITION = "INVALID_DEFINITION";
    static final String INVALID_KEY = "INVALID_KEY";

    private final Deserializer<TargetDefinition> deserializer;

    DefinitionReader(Deserializer<TargetDefinition> deserializer) {
        this.deserializer = requireNonNull(deserializer, "deserializer");
    }

    DefinitionVerdict read(String topic, byte[] key, byte[] value) {
        String id = utf8(key);
        if (id == null || id.isEmpty()) {
            return new DefinitionVerdict.Rejected(null, INVALID_KEY,
                    "key: " + (key == null ? "null" : "not UTF-8 or empty") + " (expected: the target id as UTF-8 text)");
        }
        if (value == null) {
            return new DefinitionVerdict.Deleted(id);
        }
        List<Violation> oversized = TargetValidator.validateEncodedSize(value.length);
        if (!oversized.isEmpty()) {
            // refused before Avro reads a byte of it (BEHAVIOUR.md section 9: sizes are bounded before anything is stored)
            return new DefinitionVerdict.Rejected(id, INVALID_DEFINITION, oversized.get(0).toString());
        }
        TargetDefinition definition;
        try {
            definition = deserializer.deserialize(topic, value);
        } catch (RecordDecodeException e) {
            return new DefinitionVerdict.Rejected(id, e.reason().name(), e.getMessage());
        } catch (SerializationException e) {
            // the serde's word for "the registry could not be asked": the bytes may be fine
            return new DefinitionVerdict.RetryLater(String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            return new DefinitionVerdict.Rejected(id, RecordDecodeException.Reason.UNDECODABLE.name(), e.toString());
        }
        if (definition == null) {
            return new DefinitionVerdict.Deleted(id);
        }
        TargetSpec spec;
        List<Violation> violations;
        try {
            spec = TargetSpecs.fromAvro(definition);
            violations = TargetValidator.validate(spec);
        } catch (RuntimeException e) {
            return new DefinitionVerdict.Rejected(id, INVALID_DEFINITION, e.toString());
        }
        if (!id.equals(spec.id())) {
            violations = new java.util.ArrayList<>(violations);
            violations.add(0, new Violation("id", "'" + spec.id() + "' (expected: the record key '" + id + "')"));
        }
        if (!violations.isEmpty()) {
            return new DefinitionVerdict.Rejected(id, INVALID_DEFINITION,
                    violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        // one copy of a group's or a host's name for all its targets (interned strings are collected when unused)
        return new DefinitionVerdict.Valid(spec.withSharedText(String::intern));
    }

    private static String utf8(byte[] key) {
        if (key == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(key)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
