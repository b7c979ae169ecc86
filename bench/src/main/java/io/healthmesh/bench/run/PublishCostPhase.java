package io.healthmesh.bench.run;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.PublishTuning;
import io.healthmesh.prober.publish.ResultPublisher;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.schema.ProbeResult;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishing cost per result for each producer tuning: the prober's real {@link ResultPublisher} (bounded buffer,
 * publisher thread, Avro serde) and an idempotent {@code acks=all} producer with the {@link PublishTuning}'s
 * properties publish results of {@code targets} TCP targets, paced at {@code rate} per second, to a single-node KRaft
 * broker started in this JVM for the phase, with the probe-results topic as {@link TopicSetup} creates it. Over each
 * window: bytes per result from the producer's own counters (whole produce requests on the network, and record
 * batches as the broker stores them and consumers fetch them), the CPU per result of the prober's publishing threads
 * (publisher and producer network thread) and of the broker's threads (every other thread of this JVM but the
 * pacer), each read with {@link ThreadMXBean}; the JVM's CPU outside Java threads (GC, JIT) is reported apart.
 */
public final class PublishCostPhase {

    private static final Logger LOG = LoggerFactory.getLogger(PublishCostPhase.class);
    private static final String PUBLISHER_THREAD = "healthmesh-prober-publisher";
    private static final String PRODUCER_THREAD = "kafka-producer-network-thread";
    private static final String PACER_THREAD = "bench-publish-pacer";

    /**
     * One tuning's figures over its window.
     *
     * @param wireBytesPerResult bytes the producer sent on the network per result (produce requests, headers included)
     * @param batchBytesPerResult bytes of the record batches per result (what the broker stores and consumers fetch)
     * @param recordSizeAvg the producer's {@code record-size-avg} (one record before compression)
     * @param batchSizeAvg the producer's {@code batch-size-avg} (bytes of one partition's batch, compressed)
     * @param compressionRateAvg the producer's {@code compression-rate-avg} (compressed / uncompressed)
     * @param recordsPerRequestAvg the producer's {@code records-per-request-avg}
     * @param proberMicrosPerResult CPU of the publisher and producer network threads per result
     * @param brokerMicrosPerResult CPU of the broker's threads per result
     * @param jvmOtherMicrosPerResult CPU of this JVM outside its Java threads (GC, JIT) per result
     * @param lost results dropped or not acknowledged in the window
     */
    public record Figure(PublishTuning tuning, double resultsPerSecond, double wireBytesPerResult,
                         double batchBytesPerResult, double recordSizeAvg, double batchSizeAvg,
                         double compressionRateAvg, double recordsPerRequestAvg, double proberMicrosPerResult,
                         double brokerMicrosPerResult, double jvmOtherMicrosPerResult, long lost) {
    }

    private PublishCostPhase() {
    }

    /**
     * Runs every tuning in turn, each for {@code warmup} then {@code window}, after a first pass through all of them
     * that only warms the JVM up.
     */
    public static List<Figure> run(List<PublishTuning> tunings, int targets, int rate, Duration warmup,
                                   Duration window) throws Exception {
        List<Figure> figures = new ArrayList<>();
        try (EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers()))) {
                TopicSetup.ensure(admin, Topics.DEFAULT, Topics.DEFAULT_PARTITIONS, TopicReplication.singleCopy());
            }
            List<TargetSpec> specs = new ArrayList<>(targets);
            for (int n = 0; n < targets; n++) {
                specs.add(TargetSpec.of(String.format("pc-tcp-%06d", n), "pc-g" + n / FarmSpecs.GROUP_SIZE,
                        "127.1." + (n / 250 % 250) + "." + (n % 250 + 1), 8080, Protocol.TCP).withTiming(1_000, 1_000));
            }
            // a first pass through every tuning, not measured, so that the JIT has compiled the client, the serde,
            // every codec and the broker before the first window: otherwise the first tunings pay for compilation
            for (PublishTuning tuning : tunings) {
                measure(broker, tuning, specs, rate, warmup, Duration.ofMillis(200));
            }
            for (PublishTuning tuning : tunings) {
                Figure f = measure(broker, tuning, specs, rate, warmup, window);
                LOG.info("publish cost {}", f);
                figures.add(f);
            }
        }
        return figures;
    }

    private static Figure measure(EmbeddedKafka broker, PublishTuning tuning, List<TargetSpec> specs, int rate,
                                  Duration warmup, Duration window) throws InterruptedException {
        Map<String, Object> props = new HashMap<>(tuning.producerProperties());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-publish-" + tuning.compression() + "-" + tuning.lingerMs());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        AtomicLong lost = new AtomicLong();
        String topic = Topics.DEFAULT.probeResults();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
             AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class,
                     Map.of("schema.registry.url", "mem://bench-publish-cost"))) {
            ResultPublisher publisher = new ResultPublisher(producer, topic, serde.serializer(), "default",
                    "bench-prober", 100_000, lost::incrementAndGet, lost::incrementAndGet).start();
            Pacer pacer = new Pacer(publisher, specs, rate);
            pacer.thread.start();
            try {
                TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
                Snapshot before = Snapshot.take(producer, topic);
                long lostBefore = lost.get();
                TimeUnit.NANOSECONDS.sleep(window.toNanos());
                Snapshot after = Snapshot.take(producer, topic);
                long lostInWindow = lost.get() - lostBefore;
                return figure(tuning, before, after, producer, lostInWindow);
            } finally {
                pacer.stop();
                publisher.close(Duration.ofSeconds(10));
            }
        }
    }

    private static Figure figure(PublishTuning tuning, Snapshot b, Snapshot a, KafkaProducer<?, ?> producer,
                                 long lost) {
        double records = a.records - b.records;
        double seconds = (a.nanos - b.nanos) / 1e9;
        double prober = 0;
        double brokerCpu = 0;
        double threads = 0;
        for (Map.Entry<Long, Long> e : a.threadCpu.entrySet()) {
            long delta = e.getValue() - b.threadCpu.getOrDefault(e.getKey(), 0L);
            String name = a.threadNames.getOrDefault(e.getKey(), "");
            threads += delta;
            if (name.equals(PUBLISHER_THREAD) || name.startsWith(PRODUCER_THREAD)) {
                prober += delta;
            } else if (!name.equals(PACER_THREAD) && !name.equals("main")) {
                brokerCpu += delta;
            }
        }
        double other = Math.max(0, (a.processCpu - b.processCpu) - threads);
        return new Figure(tuning, records / seconds, (a.wireBytes - b.wireBytes) / records,
                (a.batchBytes - b.batchBytes) / records, metric(producer, "record-size-avg"),
                metric(producer, "batch-size-avg"), metric(producer, "compression-rate-avg"),
                metric(producer, "records-per-request-avg"), prober / 1e3 / records, brokerCpu / 1e3 / records,
                other / 1e3 / records, lost);
    }

    private static double metric(KafkaProducer<?, ?> producer, String name) {
        return producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics") && e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(Double.NaN);
    }

    /** Counters and CPU at one instant. */
    private record Snapshot(long nanos, double records, double wireBytes, double batchBytes, long processCpu,
                            Map<Long, Long> threadCpu, Map<Long, String> threadNames) {

        static Snapshot take(KafkaProducer<?, ?> producer, String topic) {
            double records = 0;
            double wire = 0;
            double batches = 0;
            for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
                MetricName n = e.getKey();
                if (!(e.getValue().metricValue() instanceof Number number)) {
                    continue;   // the client's version and commit id are text
                }
                double v = number.doubleValue();
                if (n.group().equals("producer-metrics") && n.name().equals("record-send-total")) {
                    records = v;
                } else if (n.group().equals("producer-metrics") && n.name().equals("outgoing-byte-total")) {
                    wire = v;
                } else if (n.group().equals("producer-topic-metrics") && n.name().equals("byte-total")
                        && topic.equals(n.tags().get("topic"))) {
                    batches = v;
                }
            }
            ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
            Map<Long, Long> cpu = new HashMap<>();
            Map<Long, String> names = new HashMap<>();
            for (ThreadInfo info : tmx.getThreadInfo(tmx.getAllThreadIds())) {
                if (info == null) {
                    continue;
                }
                long t = tmx.getThreadCpuTime(info.getThreadId());
                if (t >= 0) {
                    cpu.put(info.getThreadId(), t);
                    names.put(info.getThreadId(), info.getThreadName());
                }
            }
            long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            return new Snapshot(System.nanoTime(), records, wire, batches, process, cpu, names);
        }
    }

    /** Offers results at a fixed rate, in 1 ms steps, like probes finishing over an interval. */
    private static final class Pacer {
        private final Thread thread;
        private final AtomicBoolean running = new AtomicBoolean(true);

        Pacer(ResultPublisher publisher, List<TargetSpec> specs, int rate) {
            long[] generations = specs.stream().mapToLong(ProbeFingerprint::of).toArray();
            this.thread = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(42);
                long start = System.nanoTime();
                long offered = 0;
                int next = 0;
                while (running.get()) {
                    long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                    for (; offered < due; offered++) {
                        TargetSpec spec = specs.get(next);
                        // one probe in a hundred refused; latencies and lags vary like the farm's
                        boolean up = random.nextInt(100) != 0;
                        long latency = 80 + random.nextInt(400);
                        ProbeReport report = up
                                ? new ProbeReport(Outcome.SUCCESS, latency, latency, null, null, null, null)
                                : new ProbeReport(Outcome.CONNECTION_REFUSED, latency, null, null, null, null,
                                "Connection refused");
                        publisher.offer(new CompletedProbe(spec, generations[next], System.currentTimeMillis(),
                                random.nextInt(2_000), report));
                        next = (next + 1) % specs.size();
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            }, PACER_THREAD);
            thread.setDaemon(true);
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
        }
    }
}
