package io.healthmesh.contract.serde;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.contract.registry.MemoryRegistries;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins the exact bytes of a known record under a known schema id: Confluent's layout, byte for byte. */
class WireBytesTest {

    private final String scope = "wire-" + UUID.randomUUID();

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    @Test
    void groupHealthUnderId1IsHeaderThenTheFieldsInSchemaOrder() throws IOException {
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "mem://" + scope));
        byte[] actual = serde.serializer().serialize("healthmesh.group-state", Records.groupHealth());

        // the first schema of a fresh registry gets id 1
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(new byte[] {0, 0, 0, 0, 1});
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(expected, null);
        encoder.writeString("g1");
        encoder.writeBoolean(false);
        encoder.writeInt(2);
        encoder.writeInt(1);
        encoder.writeInt(1);
        encoder.writeInt(0);
        encoder.writeInt(0);
        encoder.writeArrayStart();
        encoder.setItemCount(1);
        encoder.startItem();
        encoder.writeString("t1");
        encoder.writeArrayEnd();
        encoder.writeLong(1_700_000_000_000L);
        encoder.writeBoolean(false); // routableTruncated, added with its default
        encoder.writeIndex(0); // failOpenReason, added with its default: null, the union's first branch
        encoder.writeIndex(0); // maintenance, added last: null, the union's first branch
        encoder.flush();

        assertThat(actual).isEqualTo(expected.toByteArray());
        assertThat(HexFormat.of().formatHex(actual))
                .isEqualTo("0000000001" + "046731" + "00" + "04" + "02" + "02" + "00" + "00" + "0204743100" + "80a0abfef962" + "00" + "00" + "00");
    }

    @Test
    void theIdIsBigEndian() {
        var registry = MemoryRegistries.scope(scope);
        for (int i = 0; i < 300; i++) {
            registry.register("filler-" + i, "{\"type\":\"record\",\"name\":\"F" + i + "\",\"fields\":[]}");
        }
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "mem://" + scope));
        byte[] actual = serde.serializer().serialize("t", Records.groupHealth());
        // id 301 = 0x0000012d
        assertThat(HexFormat.of().formatHex(actual, 0, 5)).isEqualTo("000000012d");
    }
}
