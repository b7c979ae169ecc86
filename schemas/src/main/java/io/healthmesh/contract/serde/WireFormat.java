package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import org.apache.kafka.common.errors.SerializationException;

/** Confluent's wire header: one magic byte 0, then the schema id as a 4-byte big-endian int. */
final class WireFormat {

    static final byte MAGIC_BYTE = 0;
    static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /**
     * The schema id of a record in the wire format.
     *
     * @throws RecordDecodeException ({@code NOT_AVRO_WIRE_FORMAT}) when the bytes are too short or the magic byte
     *     is wrong
     */
    static int schemaId(byte[] bytes) {
        if (bytes.length < HEADER_SIZE || bytes[0] != MAGIC_BYTE) {
            throw new RecordDecodeException(Reason.NOT_AVRO_WIRE_FORMAT, "Not Confluent's Avro wire format: "
                    + (bytes.length < HEADER_SIZE ? bytes.length + " bytes (expected: at least 5)"
                    : "magic byte " + bytes[0] + " (expected: 0)"));
        }
        return ((bytes[1] & 0xff) << 24) | ((bytes[2] & 0xff) << 16) | ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
    }

    /**
     * The writer schema of {@code id} from the registry.
     *
     * @throws RecordDecodeException ({@code UNKNOWN_SCHEMA}) when the registry does not know the id: the record is bad
     * @throws SerializationException when the registry cannot answer: the record may be fine, read it again later
     */
    static String writerSchema(SchemaRegistryClient client, int id) {
        try {
            return client.schemaById(id);
        } catch (RegistryException e) {
            if (e.errorCode() == RegistryException.SCHEMA_NOT_FOUND) {
                throw new RecordDecodeException(Reason.UNKNOWN_SCHEMA, "Unknown schema id " + id + ": " + e.getMessage(), e);
            }
            throw new SerializationException("Cannot fetch schema id " + id + ": " + e.getMessage() + " (error code "
                    + e.errorCode() + ")", e);
        }
    }

    /** Confluent's TopicNameStrategy: {@code <topic>-value} or {@code <topic>-key}. */
    static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
