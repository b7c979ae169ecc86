package io.healthmesh.contract.serde;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Other writers' schemas and records for the decoders' tests: evolved, reordered, hostile. */
final class WriterSchemas {

    private WriterSchemas() {
    }

    /** {@code full}'s schema with its fields (copies) changed by {@code change}. */
    static Schema writer(Schema full, UnaryOperator<List<Schema.Field>> change) {
        List<Schema.Field> copies = new ArrayList<>();
        for (Schema.Field f : full.getFields()) {
            copies.add(new Schema.Field(f, f.schema()));
        }
        List<Schema.Field> changed = new ArrayList<>();
        for (Schema.Field f : change.apply(copies)) {
            changed.add(new Schema.Field(f, f.schema())); // a field belongs to one schema: copy again
        }
        return Schema.createRecord(full.getName(), null, full.getNamespace(), false, changed);
    }

    /** {@code from}'s values in a record of {@code writer}: the fields both have (enums by symbol). */
    static GenericRecord generic(Schema writer, SpecificRecord from) {
        GenericRecord record = new GenericData.Record(writer);
        for (Schema.Field f : writer.getFields()) {
            Schema.Field source = from.getSchema().getField(f.name());
            if (source == null) {
                continue;
            }
            Object value = from.get(source.pos());
            record.put(f.name(), value instanceof Enum<?> e ? new GenericData.EnumSymbol(f.schema(), e.name()) : value);
        }
        return record;
    }

    /** {@code record} in Confluent's wire format under schema id {@code id}. */
    static byte[] encode(int id, Schema writer, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(writer).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
