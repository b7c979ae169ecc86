package io.healthmesh.bench.jmh;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.prober.publish.ProbeResults;
import io.healthmesh.schema.ProbeResult;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One probe-results batch as the prober's producer builds it: a {@link MemoryRecordsBuilder} per partition and linger,
 * {@code records} results appended (real {@link ProbeResult} bytes of distinct TCP targets, keyed by target id), then
 * closed, which is when the codec compresses ({@code batch}); and the same batch read back record by record as a
 * consumer reads it ({@code read}). The producer takes its batch buffer from a pool, so one buffer is reused
 * here too: what a batch costs beyond the records is the codec's own set-up (for lz4, Kafka's block stream allocates
 * two 64 KB arrays per batch). At 16,000 probes a second over 6 partitions and a 10 ms linger a batch holds about 27
 * results and the prober builds about 600 a second (an estimate from the rate, not a count); at a 20 ms linger
 * about 53 and 300 ({@code -p records=53}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BatchCompressionBenchmark {

    @Param({"none", "lz4", "snappy", "zstd"})
    public String codec;

    @Param({"27"})
    public int records;

    private Compression compression;
    private byte[][] keys;
    private byte[][] values;
    private ByteBuffer buffer;
    private MemoryRecords built;
    private final BufferSupplier consumerBuffers = BufferSupplier.create();

    @Setup(Level.Trial)
    public void setUp() {
        compression = Compression.of(CompressionType.forName(codec)).build();
        Serializer<ProbeResult> serializer = AvroSerde.forValues(ProbeResult.class,
                Map.of("schema.registry.url", "mem://bench-batch")).serializer();
        keys = new byte[records][];
        values = new byte[records][];
        for (int i = 0; i < records; i++) {
            var probe = SampleResults.tcp(i * 37, 1_700_000_000_000L + i);
            keys[i] = probe.target().id().getBytes(StandardCharsets.UTF_8);
            values[i] = serializer.serialize("healthmesh.probe-results", ProbeResults.toAvro(probe, "default",
                    "prober-1"));
        }
        buffer = ByteBuffer.allocate(16_384);   // the producer's batch.size, from its pool
        built = build(ByteBuffer.allocate(16_384));
        long expected = 0;
        for (int i = 0; i < records; i++) {
            expected += keys[i].length + values[i].length;
        }
        long readBack = read();
        if (readBack != expected) {   // every record came back whole, through this codec
            throw new IllegalStateException(codec + ": a batch read back " + readBack + " key and value bytes, not "
                    + expected);
        }
    }

    /** Builds and closes one batch (the prober's side); returns its size so that nothing is optimised away. */
    @Benchmark
    public int batch() {
        buffer.clear();
        return build(buffer).sizeInBytes();
    }

    /**
     * Reads every record of one built batch as a consumer does (the aggregator's side): decompressed through a buffer
     * supplier kept across batches, as the consumer's fetcher keeps one.
     */
    @Benchmark
    public long read() {
        long sum = 0;
        for (MutableRecordBatch batch : built.batches()) {
            try (CloseableIterator<Record> it = batch.streamingIterator(consumerBuffers)) {
                while (it.hasNext()) {
                    Record r = it.next();
                    sum += r.valueSize() + r.keySize();
                }
            }
        }
        return sum;
    }

    private MemoryRecords build(ByteBuffer into) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(into, compression, TimestampType.CREATE_TIME, 0L);
        long now = 1_700_000_000_000L;
        for (int i = 0; i < records; i++) {
            builder.append(now + i, keys[i], values[i]);
        }
        return builder.build();
    }
}
