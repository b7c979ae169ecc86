package io.healthmesh.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/**
 * Plain JSON of an Avro record, with the contract's field names and without Avro's union wrappers
 * ({@code {"string": "x"}}), so that the output reads like the files {@code targets apply} takes and any
 * JSON tool can use it. Null fields are left out when {@code skipNulls} is set.
 */
public final class AvroJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AvroJson() {
    }

    public static ObjectNode of(IndexedRecord record, boolean skipNulls) {
        ObjectNode node = NODES.objectNode();
        for (Schema.Field field : record.getSchema().getFields()) {
            Object value = record.get(field.pos());
            if (value == null && skipNulls) {
                continue;
            }
            node.set(field.name(), value(value, skipNulls));
        }
        return node;
    }

    private static JsonNode value(Object value, boolean skipNulls) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof IndexedRecord r) {
            return of(r, skipNulls);
        }
        if (value instanceof CharSequence || value instanceof Enum<?>) {
            return NODES.textNode(value.toString());
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (value instanceof Float f) {
            return NODES.numberNode(f);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode node = NODES.objectNode();
            map.forEach((k, v) -> node.set(k.toString(), value(v, skipNulls)));
            return node;
        }
        if (value instanceof Collection<?> items) {
            ArrayNode array = NODES.arrayNode();
            items.forEach(v -> array.add(value(v, skipNulls)));
            return array;
        }
        // Avro's own symbols and fixed types render through their text form
        return NODES.textNode(value.toString());
    }
}
