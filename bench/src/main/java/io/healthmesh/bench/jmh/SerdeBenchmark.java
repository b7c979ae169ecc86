package io.healthmesh.bench.jmh;

import io.healthmesh.prober.publish.ProbeResults;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.ResultFields;
import io.healthmesh.contract.serde.ResultFieldsDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Confluent-wire-format Avro serde on a {@link ProbeResult}, the record published once per probe: {@code encode}
 * is the prober's side (domain result to Avro record to bytes, as the publisher does), {@code decode} the whole record
 * (what the aggregator used to read), {@code decodeFields} what the aggregator reads now
 * ({@link ResultFieldsDeserializer}: the eight fields it applies and checks, the rest skipped). The schema id is
 * resolved once through the in-process registry ({@code mem://}) and cached by the serde, as it is against a real
 * registry after the first record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerdeBenchmark {

    private static final String TOPIC = "healthmesh.probe-results";

    private AvroSerde<ProbeResult> serde;
    private Serializer<ProbeResult> serializer;
    private Deserializer<ProbeResult> deserializer;
    private ResultFieldsDeserializer fields;
    private io.healthmesh.prober.schedule.CompletedProbe probe;
    private byte[] encoded;

    @Setup(Level.Trial)
    public void setUp() {
        serde = AvroSerde.forValues(ProbeResult.class, Map.of("schema.registry.url", "mem://bench-serde"));
        serializer = serde.serializer();
        deserializer = serde.deserializer();
        fields = ResultFieldsDeserializer.fromConfig(Map.of("schema.registry.url", "mem://bench-serde"));
        probe = SampleResults.tcp(17, 1_700_000_000_000L);
        encoded = serializer.serialize(TOPIC, ProbeResults.toAvro(probe, "default", "prober-1"));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fields.close();
        serde.close();
    }

    @Benchmark
    public byte[] encode() {
        return serializer.serialize(TOPIC, ProbeResults.toAvro(probe, "default", "prober-1"));
    }

    @Benchmark
    public ProbeResult decode() {
        return deserializer.deserialize(TOPIC, encoded);
    }

    @Benchmark
    public ResultFields decodeFields() {
        return fields.deserialize(TOPIC, encoded);
    }
}
