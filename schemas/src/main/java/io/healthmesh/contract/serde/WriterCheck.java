package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * A writer schema fetched by id and checked against a reader's, the one check every decoder of this package makes
 * once per id ({@link AvroDeserializer} and the field readers on {@link FieldsDeserializer}), so that they refuse
 * the same writers with the same words: the parsed schema, or why records written with it cannot be read.
 *
 * @param writer  the parsed writer schema ({@code null} when it could not be parsed)
 * @param refusal why records under this id are refused, or {@code null} when they can be read
 */
record WriterCheck(Schema writer, String refusal) {

    /**
     * Fetches schema {@code id} through {@code client} and checks that {@code reader} can read it.
     *
     * @throws RecordDecodeException ({@code UNKNOWN_SCHEMA}) when the registry does not know the id
     * @throws org.apache.kafka.common.errors.SerializationException when the registry cannot answer
     */
    static WriterCheck of(SchemaRegistryClient client, int id, Schema reader, String typeName) {
        String schemaText = WireFormat.writerSchema(client, id);
        try {
            Schema writer;
            try {
                writer = SchemaRegistry.parse(schemaText);
            } catch (RegistryException e) {
                return new WriterCheck(null, "Schema id " + id + " is not a valid Avro schema: " + e.getMessage());
            }
            SchemaPairCompatibility compatibility = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
            if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                return new WriterCheck(writer, "Records written with schema id " + id + " cannot be read as "
                        + typeName + ": " + compatibility.getResult().getIncompatibilities().stream()
                        .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).toList());
            }
            return new WriterCheck(writer, null);
        } catch (RuntimeException | StackOverflowError e) {
            // a hostile schema (absurdly nested, say) must be refused like any unreadable one, not stop the worker
            return unusable(id, e);
        }
    }

    /** The refusal of a schema that passed the check but could not be used to build a reader. */
    static WriterCheck unusable(int id, Throwable e) {
        return new WriterCheck(null, "Schema id " + id + " cannot be used: " + e);
    }
}
