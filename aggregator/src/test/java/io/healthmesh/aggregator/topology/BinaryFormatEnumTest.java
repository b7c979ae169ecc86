package io.healthmesh.aggregator.topology;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Enums in the stores' binary format: stored by name, read back by matching the name's bytes. */
class BinaryFormatEnumTest {

    /** Names that are prefixes of one another, and one beyond ASCII. */
    enum Sample { AL, ALPHA, ALPHABET, ΑΛΦΑ }

    @Test
    void everyConstantReadsBackAndTheValuesAfterItToo() {
        List<Enum<?>> written = new ArrayList<>(List.of(Sample.values()));
        written.addAll(List.of(TimeUnit.values()));
        byte[] bytes = BinaryFormat.encode(1, out -> {
            for (Enum<?> e : written) {
                BinaryFormat.writeNullableEnum(out, e);
                out.writeInt(e.ordinal());
            }
            BinaryFormat.writeNullableEnum(out, null);
            BinaryFormat.writeString(out, TimeUnit.DAYS.name());
            out.writeLong(42);
        });

        List<Object> read = BinaryFormat.decode(bytes, 1, "test", in -> {
            List<Object> values = new ArrayList<>();
            for (Enum<?> e : written) {
                values.add(BinaryFormat.readNullableEnum(in, e.getDeclaringClass()));
                values.add(in.readInt());
            }
            values.add(BinaryFormat.readNullableEnum(in, Sample.class));
            values.add(BinaryFormat.readEnum(in, TimeUnit.class));
            values.add(in.readLong());
            return values;
        });

        List<Object> expected = new ArrayList<>();
        written.forEach(e -> {
            expected.add(e);
            expected.add(e.ordinal());
        });
        expected.add(null);
        expected.add(TimeUnit.DAYS);
        expected.add(42L);
        assertThat(read).isEqualTo(expected);
    }

    @Test
    void aNameNoConstantHasFailsAndSaysWhichName() {
        for (String name : List.of("ALP", "ALPHAB", "ALPHABETS", "A", "", "alpha", "ΑΛΦ")) {
            byte[] bytes = BinaryFormat.encode(1, out -> BinaryFormat.writeString(out, name));

            assertThatThrownBy(() -> BinaryFormat.decode(bytes, 1, "test", in -> BinaryFormat.readEnum(in, Sample.class)))
                    .as(name).isInstanceOf(SerializationException.class)
                    .hasMessageContaining("No enum constant").hasMessageContaining("Sample." + name);
        }
    }

    @Test
    void aLengthBeyondTheBytesLeftFails() {
        byte[] bytes = BinaryFormat.encode(1, out -> {
            out.writeInt(100);
            out.writeBytes("ALPHA");
        });

        assertThatThrownBy(() -> BinaryFormat.decode(bytes, 1, "test", in -> BinaryFormat.readEnum(in, Sample.class)))
                .isInstanceOf(SerializationException.class).hasMessageContaining("100 bytes");
    }
}
