package io.healthmesh.contract.serde;

import io.healthmesh.schema.TargetDefinition;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroBytesTest {

    private static final byte[] HEADER = {0, 0, 0, 0, 7};

    private final DatumWriter<TargetDefinition> writer = new SpecificDatumWriter<>(TargetDefinition.class);

    @Test
    void theHeaderThenTheBytesAvrosOwnEncoderWrites() throws IOException {
        TargetDefinition definition = Records.targetDefinition();

        assertThat(AvroBytes.write(HEADER, writer, definition)).isEqualTo(reference(HEADER, definition));
        assertThat(AvroBytes.write(new byte[0], writer, definition)).isEqualTo(reference(new byte[0], definition));
    }

    @Test
    void valuesLargerThanTheEncodersBlockAndThanWhatAThreadKeepsAreWhole() throws IOException {
        for (int size : new int[] {100, 3_000, AvroBytes.RETAINED_BYTES * 2, 10}) {
            TargetDefinition definition = withLabel(Records.targetDefinition(), "x".repeat(size));

            assertThat(AvroBytes.write(HEADER, writer, definition)).isEqualTo(reference(HEADER, definition));
        }
    }

    @Test
    void aFailedWriteLeavesNothingForTheNextOne() throws IOException {
        TargetDefinition broken = Records.targetDefinition();
        broken.setGroup(null);   // the schema allows no null here: the writer fails half-way through the record

        assertThatThrownBy(() -> AvroBytes.write(HEADER, writer, broken)).isInstanceOf(RuntimeException.class);
        TargetDefinition fine = Records.targetDefinition();
        assertThat(AvroBytes.write(HEADER, writer, fine)).isEqualTo(reference(HEADER, fine));
    }

    @Test
    void aWriterThatWritesAnotherValueThroughThisClassGetsBothRight() throws IOException {
        TargetDefinition inner = withLabel(Records.targetDefinition(), "inner");
        TargetDefinition outer = Records.targetDefinition();
        byte[][] innerBytes = new byte[1][];
        DatumWriter<TargetDefinition> nesting = new SpecificDatumWriter<>(TargetDefinition.class) {
            @Override
            public void write(TargetDefinition datum, org.apache.avro.io.Encoder out) throws IOException {
                innerBytes[0] = AvroBytes.write(HEADER, writer, inner);
                super.write(datum, out);
            }
        };

        assertThat(AvroBytes.write(HEADER, nesting, outer)).isEqualTo(reference(HEADER, outer));
        assertThat(innerBytes[0]).isEqualTo(reference(HEADER, inner));
    }

    @Test
    void threadsWritingAtOnceEachGetTheirOwnValue() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    DatumWriter<TargetDefinition> own = new SpecificDatumWriter<>(TargetDefinition.class);
                    for (int i = 0; i < 2_000; i++) {
                        String id = "t" + thread + "-" + i;
                        TargetDefinition definition = withLabel(Records.targetDefinition(), "v".repeat(i % 700));
                        definition.setId(id);
                        byte[] bytes = AvroBytes.write(HEADER, own, definition);
                        assertThat(decode(bytes).getId()).isEqualTo(id);
                        assertThat(Arrays.copyOf(bytes, HEADER.length)).isEqualTo(HEADER);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static TargetDefinition withLabel(TargetDefinition definition, String value) {
        definition.setLabels(Map.of("note", value));
        return definition;
    }

    private static byte[] reference(byte[] header, TargetDefinition definition) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>(TargetDefinition.class).write(definition, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static TargetDefinition decode(byte[] bytes) throws IOException {
        return new SpecificDatumReader<>(TargetDefinition.class).read(null,
                DecoderFactory.get().binaryDecoder(bytes, HEADER.length, bytes.length - HEADER.length, null));
    }
}
