package io.healthmesh.contract.serde;

import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Anyone who can register a writer schema can send bytes under it: a schema compatible with the reader's but with
 * an extra field of a hostile shape must end as {@code UNDECODABLE}, fast, without recursing or allocating.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class HostileWriterSchemaTest {

    private static final String TOPIC = "targets";
    private final String scope = "hostile-" + UUID.randomUUID();
    private final AvroSerde<TargetDefinition> serde =
            AvroSerde.forValues(TargetDefinition.class, Map.of("schema.registry.url", "mem://" + scope));

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    /** The reader's schema with one more field, {@code junk}, of the given type, last. */
    private int registerWithJunk(String junkType) {
        String reader = TargetDefinition.getClassSchema().toString();
        String writer = reader.substring(0, reader.lastIndexOf(']')) + ",{\"name\":\"junk\",\"type\":" + junkType + "}]}";
        return MemoryRegistries.scope(scope).register("hostile-value", writer);
    }

    /** Wire header of {@code id}, a valid definition's body, then {@code junk} (the extra field's bytes). */
    private static byte[] record(int id, byte[] junk) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        var encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>(TargetDefinition.class).write(Records.targetDefinition(), encoder);
        out.write(junk);
        return out.toByteArray();
    }

    private static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long raw = (value << 1) ^ (value >> 63);
        while ((raw & ~0x7fL) != 0) {
            out.write((int) ((raw & 0x7f) | 0x80));
            raw >>>= 7;
        }
        out.write((int) raw);
        return out.toByteArray();
    }

    private void assertUndecodable(byte[] bytes, String because) {
        // the first record of a schema id pays for fetching, parsing and resolving it: time the next one
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes)).isInstanceOf(RecordDecodeException.class);
        long started = System.nanoTime();
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining(because);
        assertThat(System.nanoTime() - started).as("nanoseconds to refuse").isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void aHarmlessExtraFieldStillDecodes() throws IOException {
        int id = registerWithJunk("\"string\"");
        byte[] junk = {4, 'o', 'k'};
        assertThat(serde.deserializer().deserialize(TOPIC, record(id, junk))).isEqualTo(Records.targetDefinition());
    }

    @Test
    void aRecursiveSchemaNestedAHundredThousandDeepIsRefusedWithoutRecursing() throws IOException {
        int id = registerWithJunk("{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"next\","
                + "\"type\":[\"null\",\"Node\"]}]}");
        byte[] junk = new byte[100_001];
        java.util.Arrays.fill(junk, (byte) 2); // union branch 1 ("Node"), again and again
        junk[junk.length - 1] = 0;             // and finally null
        serde.deserializer().deserialize(TOPIC, record(id, new byte[] {2, 2, 0})); // warm: a shallow one decodes
        assertUndecodable(record(id, junk), "nesting deeper than 32 levels");
    }

    @Test
    void aBlockCountOf2To62ItemsOfNullIsRefusedAtOnce() throws IOException {
        int id = registerWithJunk("{\"type\":\"array\",\"items\":\"null\"}");
        byte[] count = varint(1L << 62);
        byte[] junk = java.util.Arrays.copyOf(count, count.length + 1);
        assertUndecodable(record(id, junk), "block of 4611686018427387904 items");
    }

    @Test
    void aMapBlockOfNegativeCountWithAHugeByteSizeIsRefused() throws IOException {
        int id = registerWithJunk("{\"type\":\"map\",\"values\":\"null\"}");
        ByteArrayOutputStream junk = new ByteArrayOutputStream();
        junk.write(varint(-3));
        junk.write(varint(Long.MAX_VALUE));
        assertUndecodable(record(id, junk.toByteArray()), "block of 9223372036854775807 bytes");
    }

    @Test
    void stringAndBytesLengthsBeyondTheRecordAreRefusedBeforeAllocating() throws IOException {
        int strings = registerWithJunk("\"string\"");
        assertUndecodable(record(strings, varint(Integer.MAX_VALUE)), "string of 2147483647 bytes");
        int bytes = registerWithJunk("\"bytes\"");
        assertUndecodable(record(bytes, varint(-5)), "bytes of -5 bytes");
    }

    @Test
    void anAbsurdlyNestedSchemaIsRefusedNotFatal() throws IOException {
        StringBuilder type = new StringBuilder();
        int depth = 3_000;
        for (int i = 0; i < depth; i++) {
            type.append("{\"type\":\"array\",\"items\":");
        }
        type.append("\"null\"");
        type.append("}".repeat(depth));
        int id;
        try {
            id = registerWithJunk(type.toString());
        } catch (RuntimeException refusedByTheRegistry) {
            return; // a registry that refuses it is fine too: it can never be sent
        }
        byte[] junk = new byte[depth + 1];
        java.util.Arrays.fill(junk, (byte) 2);
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, record(id, junk)))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
    }
}
