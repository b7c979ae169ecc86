package io.healthmesh.bench.jmh;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.prober.PublishTuning;
import io.healthmesh.prober.publish.ResultPublisher;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Result publishing end to end against a real broker: the prober's {@link ResultPublisher} (bounded buffer,
 * publisher thread, Avro serde) feeding an idempotent {@code acks=all} producer with the prober's default
 * {@code publish.*} tuning (compression, linger, batch size: {@link PublishTuning#defaults()})
 * that writes to a single-node KRaft broker started in this JVM on loopback ({@link EmbeddedKafka}, 6 partitions).
 * One operation is one result offered, serialized, sent and acknowledged by the broker: each invocation offers
 * {@value #BATCH} results and returns once the producer has had every one of them acknowledged. The broker's own
 * CPU is in the same process and on the same 2 cores, so this is a lower bound of what a prober can publish.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class PublishBenchmark {

    static final int BATCH = 1_000;

    private EmbeddedKafka broker;
    private KafkaProducer<byte[], byte[]> producer;
    private ResultPublisher publisher;
    private AvroSerde<ProbeResult> serde;
    private Metric sendTotal;
    private final AtomicLong failed = new AtomicLong();
    private CompletedProbe[] results;
    private long offered;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        String topic = Topics.DEFAULT.probeResults();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, Topics.DEFAULT_PARTITIONS, (short) 1))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> props = new java.util.HashMap<>(PublishTuning.defaults().producerProperties());
        props.putAll(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
        producer = new KafkaProducer<>(props);
        serde = AvroSerde.forValues(ProbeResult.class, Map.of("schema.registry.url", "mem://bench-publish"));
        publisher = new ResultPublisher(producer, topic, serde.serializer(), "default", "bench-prober",
                100_000, () -> failed.incrementAndGet(), () -> failed.incrementAndGet()).start();
        sendTotal = producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics") && e.getKey().name().equals("record-send-total"))
                .map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new IllegalStateException("producer has no record-send-total metric"));
        results = new CompletedProbe[BATCH];
        for (int i = 0; i < BATCH; i++) {
            results[i] = SampleResults.tcp(i, 1_700_000_000_000L + i);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        publisher.close();
        producer.close();
        serde.close();
        broker.close();
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " results were dropped or not acknowledged");
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long publish() throws InterruptedException {
        for (CompletedProbe result : results) {
            publisher.offer(result);
        }
        offered += BATCH;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // every result handed to the producer, then every one acknowledged (flush waits for the acks)
        while (((Number) sendTotal.metricValue()).longValue() < offered) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("publisher did not hand " + BATCH + " results over within 30 s");
            }
            Thread.onSpinWait();
        }
        producer.flush();
        return offered;
    }

}
