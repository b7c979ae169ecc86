package io.healthmesh.probe.condition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cel.common.values.NullValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A body parsed as JSON into the values CEL reads: objects as maps, arrays as lists, integers that fit as int, other
 * numbers as double, and {@code null} as CEL's null. A body that does not parse, or was cut at the bound, is CEL's
 * null as a whole, so that {@code json.status} fails the condition rather than reading half a document.
 */
final class JsonValues {

    /** How deeply a document may nest: beyond it the body is not read as JSON. */
    static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA.mappedFeature())
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    }

    private JsonValues() {
    }

    /** {@code body} as CEL values, or CEL's null when it is not one whole JSON document. */
    static Object parse(String body, boolean complete) {
        if (!complete || body.isEmpty()) {
            return NullValue.NULL_VALUE;
        }
        try {
            return value(MAPPER.readTree(body));
        } catch (JsonProcessingException e) {
            return NullValue.NULL_VALUE;
        }
    }

    private static Object value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            node.fields().forEachRemaining(e -> out.put(e.getKey(), value(e.getValue())));
            return out;
        }
        if (node.isArray()) {
            List<Object> out = new ArrayList<>(node.size());
            node.forEach(child -> out.add(value(child)));
            return out;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }
}
