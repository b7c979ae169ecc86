package io.healthmesh.prober;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.embedded.FreePorts;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.healthmesh.testkit.farm.TargetFarm;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker of its own that the test stops and restarts: while Kafka is away the worker keeps probing, results
 * wait in the bounded buffer (the oldest dropped and counted), and once Kafka is back they are published.
 */
class KafkaOutageIT {

    private static final int TARGETS = 10;
    private static final int INTERVAL_MS = 200;
    /** Two seconds of results (50 a second): more than the publisher needs to reconnect once Kafka is back. */
    private static final int CAPACITY = 100;
    /**
     * 250 results: more than the buffer plus what the producer may hold unacknowledged (2 x CAPACITY), so some
     * must be dropped.
     */
    private static final Duration OUTAGE = Duration.ofSeconds(5);

    @Test
    @Timeout(120)
    void workerKeepsProbingWhileKafkaIsAwayAndPublishesWhatTheBufferKept(@TempDir Path dir) throws Exception {
        EmbeddedKafkaConfig brokerConfig = EmbeddedKafkaConfig.defaults().withDataDir(dir.resolve("kafka"))
                .withPort(FreePorts.one());
        Topics topics = new Topics("outage.");
        String registry = "mem://outage-" + UUID.randomUUID();
        EmbeddedKafka broker = EmbeddedKafka.start(brokerConfig);
        try (TargetFarm farm = TargetFarm.tcp(1)) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
            }
            writeTargets(broker.bootstrapServers(), registry, topics, farm.targets().get(0).socketAddress());
            Map<String, String> settings = new HashMap<>();
            settings.put("bootstrap.servers", broker.bootstrapServers());
            settings.put("schema.registry.url", registry);
            settings.put("topic.prefix", topics.prefix());
            settings.put("prober.id", "outage");
            settings.put("allow.list", "127.0.0.0/8"); // the target is a loopback listener: denied by default
            settings.put("http.host", "127.0.0.1");
            settings.put("http.port", "0");
            settings.put("buffer.capacity", Integer.toString(CAPACITY));
            settings.put("kafka.session.timeout.ms", "10000");
            settings.put("kafka.heartbeat.interval.ms", "1000");
            // reconnect soon once Kafka is back, so that the buffer still holds results from the outage then
            settings.put("kafka.max.block.ms", "500");
            settings.put("kafka.reconnect.backoff.max.ms", "250");
            try (ProberWorker worker = ProberWorker.start(ProberConfig.from(settings));
                 TopicRecorder<ProbeResult> before = new TopicRecorder<>(broker.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, Map.of("schema.registry.url", registry)).deserializer())) {
                Await.until(Duration.ofSeconds(20), () -> before.values().size() >= 20,
                        () -> "results before the outage: " + before.values().size());
                before.close();

                broker.close();
                long outageStart = System.currentTimeMillis();
                double probesAtStart = probes(worker);
                Await.until(OUTAGE.plusSeconds(5), () -> System.currentTimeMillis() - outageStart >= OUTAGE.toMillis(),
                        () -> "outage");
                double probedDuringOutage = probes(worker) - probesAtStart;
                // ten targets every 200 ms: about 250 probes in 5 s; the scheduler must not have waited for Kafka
                assertThat(probedDuringOutage).isGreaterThan(150);
                assertThat(gauge(worker, "healthmesh_prober_buffered_results")).isLessThanOrEqualTo(CAPACITY);
                assertThat(counter(worker, "healthmesh_prober_buffer_dropped")).isPositive();

                broker = EmbeddedKafka.start(brokerConfig);
                long outageEnd = System.currentTimeMillis();
                try (TopicRecorder<ProbeResult> after = new TopicRecorder<>(broker.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, Map.of("schema.registry.url", registry)).deserializer())) {
                    Await.until(Duration.ofSeconds(60), () -> !after.values(r -> r.getStartedAtMs() > outageEnd + 1_000).isEmpty(),
                            () -> "no result after the restart yet; " + after.values().size() + " results read");
                    List<ProbeResult> fromOutage = after.values(r -> r.getStartedAtMs() >= outageStart
                            && r.getStartedAtMs() <= outageEnd);
                    assertThat(fromOutage).as("results probed while Kafka was away, published later").isNotEmpty();
                    assertThat(fromOutage.size()).isLessThanOrEqualTo((int) probedDuringOutage);
                }
            }
        } finally {
            broker.close();
        }
    }

    private static void writeTargets(String bootstrap, String registry, Topics topics, InetSocketAddress at)
            throws Exception {
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class,
                Map.of("schema.registry.url", registry));
        try (KafkaProducer<String, TargetDefinition> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), serde.serializer())) {
            for (int i = 0; i < TARGETS; i++) {
                TargetSpec spec = TargetSpec.of("t-" + i, "g", at.getAddress().getHostAddress(), at.getPort(),
                        Protocol.TCP).withTiming(INTERVAL_MS, 100);
                producer.send(new ProducerRecord<>(topics.targets(), spec.id(), TargetSpecs.toAvro(spec))).get();
            }
        }
    }

    private static double probes(ProberWorker worker) {
        return worker.registry().scrape().stream()
                .filter(s -> s.getMetadata().getName().equals("healthmesh_prober_probes"))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }

    private static double counter(ProberWorker worker, String name) {
        return worker.registry().scrape().stream().filter(s -> s.getMetadata().getName().equals(name))
                .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }

    private static double gauge(ProberWorker worker, String name) {
        return worker.registry().scrape().stream().filter(s -> s.getMetadata().getName().equals(name))
                .flatMap(s -> ((GaugeSnapshot) s).getDataPoints().stream())
                .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue).sum();
    }
}
