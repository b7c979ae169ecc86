package io.healthmesh.contract.serde;

/** Confluent's wire header: one magic byte 0, then the schema id as a 4-byte big-endian int. */
final class WireFormat {

    static final byte MAGIC_BYTE = 0;
    static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /** Confluent's TopicNameStrategy: {@code <topic>-value} or {@code <topic>-key}. */
    static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
