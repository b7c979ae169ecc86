package io.healthmesh.prober.publish;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.embedded.FreePorts;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The publisher's flushes on a real broker, with a producer that lingers 4 s: a result that may change its target's
 * state ({@code publish.urgent}) is read within a fraction of the linger and takes the results waiting before it
 * along; without the setting (or for a result that repeats a settled state) the linger holds it. And a full window of
 * unacknowledged results is sent at once rather than after the linger, so the linger does not cap the rate.
 */
class UrgentPublishIT {

    private static final Duration LINGER = Duration.ofSeconds(4);
    /** How long nothing may arrive: a quarter of the linger. */
    private static final Duration HELD = Duration.ofSeconds(1);

    @TempDir
    static Path dir;
    private static EmbeddedKafka broker;
    private static final String REGISTRY = "mem://urgent-" + UUID.randomUUID();
    private static final AvroSerde<ProbeResult> SERDE =
            AvroSerde.forValues(ProbeResult.class, Map.of("schema.registry.url", REGISTRY));

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withDataDir(dir.resolve("kafka"))
                .withPort(FreePorts.one()));
    }

    @AfterAll
    static void stopBroker() {
        SERDE.close();
        if (broker != null) {
            broker.close();
        }
    }

    private static CompletedProbe result(String target, boolean mayDecide) {
        TargetSpec spec = TargetSpec.of(target, "g", "127.0.0.1", 80, Protocol.TCP);
        return new CompletedProbe(spec, 1L, System.currentTimeMillis(), 0,
                ProbeReport.of(Outcome.CONNECTION_REFUSED, 120, "refused"), mayDecide);
    }

    private static Topics topics(String name) throws Exception {
        Topics topics = new Topics(name + ".");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        return topics;
    }

    private static KafkaProducer<byte[], byte[]> lingeringProducer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, Long.toString(LINGER.toMillis()),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static TopicRecorder<ProbeResult> recorder(Topics topics) {
        return new TopicRecorder<>(broker.bootstrapServers(), topics.probeResults(), SERDE.deserializer());
    }

    /** A started publisher letting the producer hold at most 10 results unacknowledged. */
    private static ResultPublisher publisher(KafkaProducer<byte[], byte[]> producer, Topics topics, boolean urgent,
                                             List<ResultPublisher.Flush> flushes) {
        return new ResultPublisher(producer, topics.probeResults(), SERDE.serializer(), "eu", "p-1", 100, 10,
                () -> { }, () -> { }, urgent, flushes::add).start();
    }

    @Test
    @Timeout(60)
    void aResultThatMayDecideIsSentAtOnceAndTakesTheWaitingOnesAlong() throws Exception {
        Topics topics = topics("urgent-on");
        List<ResultPublisher.Flush> flushes = new CopyOnWriteArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = lingeringProducer();
             TopicRecorder<ProbeResult> read = recorder(topics)) {
            ResultPublisher publisher = publisher(producer, topics, true, flushes);
            try {
                publisher.offer(result("steady", false));
                Await.holdsFor(HELD, () -> read.all().isEmpty(),
                        () -> "a result repeating a settled state was sent before the linger: " + read.all());

                long offered = System.currentTimeMillis();
                publisher.offer(result("flip", true));
                Await.until(LINGER.minus(HELD).dividedBy(2), () -> read.all().size() == 2,
                        () -> "both results within half the linger left; read " + read.all());
                assertThat(read.of("flip").get(0).receivedAtMs() - offered).isLessThan(LINGER.minus(HELD).toMillis() / 2);
                assertThat(read.all()).extracting(TopicRecorder.Received::key).containsExactly("steady", "flip");
                assertThat(flushes).containsExactly(ResultPublisher.Flush.URGENT);
            } finally {
                publisher.close(Duration.ofSeconds(1));
            }
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .as("the flusher ends with the publisher").doesNotContain("healthmesh-prober-flusher");
        }
    }

    @Test
    @Timeout(60)
    void aFullWindowIsSentWithoutWaitingForTheLinger() throws Exception {
        Topics topics = topics("window");
        List<ResultPublisher.Flush> flushes = new CopyOnWriteArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = lingeringProducer();
             TopicRecorder<ProbeResult> read = recorder(topics)) {
            // at most 10 unacknowledged: 45 results are four full windows and five more
            ResultPublisher publisher = publisher(producer, topics, false, flushes);
            try {
                IntStream.range(0, 45).forEach(i -> publisher.offer(result("t-" + i, false)));
                // waiting for the linger, each window would take 4 s: 16 s for the first 40
                Await.until(LINGER.dividedBy(2), () -> read.all().size() >= 40,
                        () -> "four windows within half a linger; read " + read.all().size());
                assertThat(flushes).contains(ResultPublisher.Flush.WINDOW_FULL).doesNotContain(ResultPublisher.Flush.URGENT);
                Await.until(LINGER.multipliedBy(3), () -> read.all().size() == 45, () -> "the last five");
            } finally {
                publisher.close(Duration.ofSeconds(1));
            }
        }
    }

    @Test
    @Timeout(60)
    void withoutTheSettingEveryResultWaitsForTheLinger() throws Exception {
        Topics topics = topics("urgent-off");
        List<ResultPublisher.Flush> flushes = new CopyOnWriteArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = lingeringProducer();
             TopicRecorder<ProbeResult> read = recorder(topics)) {
            ResultPublisher publisher = publisher(producer, topics, false, flushes);
            try {
                publisher.offer(result("flip", true));
                Await.holdsFor(HELD, () -> read.all().isEmpty(),
                        () -> "sent before the linger with publish.urgent off: " + read.all());
                Await.until(LINGER.multipliedBy(3), () -> read.all().size() == 1, () -> "the result after its linger");
                assertThat(flushes).isEmpty();
            } finally {
                publisher.close(Duration.ofSeconds(1));
            }
        }
    }
}
