package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.ProbeObservation;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.contract.serde.ResultFields;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ResultBounds;
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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Turns input bytes into domain values or a {@link Rejection}. Every way a record can be bad ends here as a value;
 * only a registry that cannot be reached escapes as an exception, because then the record may well be fine and must
 * be retried, not rejected. Public so that tools reading the same topics (replay) decode and validate exactly as the
 * aggregator does.
 */
public final class InputDecoder {

    private final Deserializer<TargetDefinition> definitions;
    private final Deserializer<ResultFields> results;

    /**
     * @param results reads the fields of a {@code ProbeResult} that are applied and checked
     *     ({@link io.healthmesh.contract.serde.ResultFieldsDeserializer}); shared by every task, so thread-safe
     */
    public InputDecoder(Deserializer<TargetDefinition> definitions, Deserializer<ResultFields> results) {
        this.definitions = requireNonNull(definitions, "definitions");
        this.results = requireNonNull(results, "results");
    }

    /** The key as a UTF-8 id, rejected when absent, empty or not UTF-8. */
    public static Decoded<String> key(byte[] key) {
        if (key == null || key.length == 0) {
            return Decoded.rejected(Rejection.INVALID_KEY, "key: " + (key == null ? "null" : "empty")
                    + " (expected: the target id in UTF-8)");
        }
        try {
            return Decoded.ok(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(key)).toString());
        } catch (CharacterCodingException e) {
            return Decoded.rejected(Rejection.INVALID_KEY, "key: " + key.length + " bytes (expected: UTF-8 text)");
        }
    }

    /** A definition, validated, whose id must equal the record key. */
    public Decoded<TargetSpec> definition(String topic, String key, byte[] value) {
        List<Violation> oversized = TargetValidator.validateEncodedSize(value.length);
        if (!oversized.isEmpty()) {
            return Decoded.rejected(Rejection.INVALID_DEFINITION, oversized.get(0).toString());
        }
        Decoded<TargetDefinition> decoded = decode(definitions, topic, value);
        if (decoded.isRejected()) {
            return Decoded.rejected(decoded.rejection().reason(), decoded.rejection().detail());
        }
        TargetSpec spec;
        try {
            spec = TargetSpecs.fromAvro(decoded.value());
        } catch (RuntimeException e) {
            return Decoded.rejected(Rejection.INVALID_DEFINITION, "definition: " + e.getMessage());
        }
        if (!key.equals(spec.id())) {
            return Decoded.rejected(Rejection.INVALID_DEFINITION,
                    "id: " + spec.id() + " (expected: the record key " + key + ")");
        }
        List<Violation> violations = TargetValidator.validate(spec);
        if (!violations.isEmpty()) {
            return Decoded.rejected(Rejection.INVALID_DEFINITION,
                    violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        return Decoded.ok(spec);
    }

    /** A result for the target named by the record key. */
    public Decoded<ProbeObservation> result(String topic, String key, byte[] value) {
        if (value == null) {
            return Decoded.rejected(Rejection.INVALID_RESULT, "value: null (expected: a ProbeResult)");
        }
        List<Violation> oversized = ResultBounds.validateEncodedSize(value.length);
        if (!oversized.isEmpty()) {
            return Decoded.rejected(Rejection.INVALID_RESULT, oversized.get(0).toString());
        }
        Decoded<ResultFields> decoded = decode(results, topic, value);
        if (decoded.isRejected()) {
            return Decoded.rejected(decoded.rejection().reason(), decoded.rejection().detail());
        }
        ResultFields r = decoded.value();
        if (!key.equals(r.targetId())) {
            return Decoded.rejected(Rejection.INVALID_RESULT,
                    "targetId: " + r.targetId() + " (expected: the record key " + key + ")");
        }
        List<Violation> numbers = ResultBounds.validateNumbers(r.generation(), r.startedAtMs(), r.latencyMicros());
        List<Violation> texts = ResultBounds.validate(r.region(), r.proberId(), r.detail());
        if (!numbers.isEmpty() || !texts.isEmpty()) {
            List<Violation> bounds = new ArrayList<>(numbers);
            bounds.addAll(texts);
            return Decoded.rejected(Rejection.INVALID_RESULT,
                    bounds.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        }
        return Decoded.ok(new ProbeObservation(r.region(), r.generation(), Outcome.valueOf(r.outcome().name()),
                r.startedAtMs(), r.latencyMicros(), r.detail()));
    }

    static <T> Decoded<T> decode(Deserializer<T> deserializer, String topic, byte[] value) {
        try {
            T decoded = deserializer.deserialize(topic, value);
            if (decoded == null) {
                return Decoded.rejected(RecordDecodeException.Reason.UNDECODABLE.name(), "value: decodes to null");
            }
            return Decoded.ok(decoded);
        } catch (RecordDecodeException e) {
            return Decoded.rejected(e.reason().name(), String.valueOf(e.getMessage()));
        } catch (SerializationException e) {
            // the registry could not be asked: retry the record, do not reject it
            throw new RegistryUnavailableException(String.valueOf(e.getMessage()), e);
        } catch (RuntimeException e) {
            // whatever else Avro throws on hostile bytes must not stop the worker
            return Decoded.rejected(RecordDecodeException.Reason.UNDECODABLE.name(), e.toString());
        }
    }
}
