package io.healthmesh.prober;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.prober.assign.TargetAssignment;
import io.healthmesh.prober.assign.TargetSink;
import io.healthmesh.prober.schedule.Ticker;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.healthmesh.testkit.farm.TargetFarm;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** One worker on the real broker: bad definitions go to the rejected topic, good ones keep being probed, updates apply live. */
@ExtendWith(KafkaExtension.class)
class TargetDefinitionsIT {

    private static final int INTERVAL_MS = 300;

    private static Topics topics(TestKafka kafka) {
        Topics topics = new Topics("defs-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), 3, true);
        kafka.createTopic(topics.probeResults(), 3, false);
        kafka.createTopic(topics.rejected(), 1, false);
        return topics;
    }

    private static ProberWorker worker(TestKafka kafka, Topics topics, String region) {
        return ProberWorker.start(ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "solo")));
    }

    @Test
    @Timeout(60)
    void undecodableAndInvalidDefinitionsAreRejectedWhileGoodTargetsAreProbed(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String region = "it-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(1);
             DefinitionWriter writer = new DefinitionWriter(kafka, topics);
             TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             ProberWorker worker = worker(kafka, topics, region)) {
            InetSocketAddress at = farm.targets().get(0).socketAddress();
            writer.put(tcp("good-1", at));
            byte[] junk = "{\"id\": \"junk\"}".getBytes(StandardCharsets.UTF_8);
            writer.putRaw("junk", junk);
            byte[] invalid = writer.encode(tcp("bad", at).withTiming(50, 2_000));
            writer.putRaw("bad", invalid);
            writer.put(tcp("good-2", at));

            Await.until(Duration.ofSeconds(20), () -> countFor(results, "good-1") >= 3 && countFor(results, "good-2") >= 3,
                    () -> "results: " + results.values().size());
            List<ConsumerRecord<byte[], byte[]>> rejected = readRejected(kafka, topics, 2);

            ConsumerRecord<byte[], byte[]> junkRecord = byKey(rejected, "junk");
            assertThat(junkRecord.value()).isEqualTo(junk);
            assertThat(header(junkRecord, RejectedHeaders.REASON)).isEqualTo("NOT_AVRO_WIRE_FORMAT");
            assertThat(header(junkRecord, RejectedHeaders.SOURCE_TOPIC)).isEqualTo(topics.targets());
            assertThat(header(junkRecord, RejectedHeaders.REJECTED_BY)).isEqualTo("prober/" + region + "/solo");
            assertThat(header(junkRecord, RejectedHeaders.SOURCE_OFFSET)).matches("\\d+");
            assertThat(header(junkRecord, RejectedHeaders.SOURCE_PARTITION)).matches("[0-2]");

            ConsumerRecord<byte[], byte[]> badRecord = byKey(rejected, "bad");
            assertThat(badRecord.value()).isEqualTo(invalid);
            assertThat(header(badRecord, RejectedHeaders.REASON)).isEqualTo("INVALID_DEFINITION");
            assertThat(header(badRecord, RejectedHeaders.DETAIL)).contains("intervalMs: 50 (expected: 100..600000)");

            assertThat(worker.probedTargets()).containsExactlyInAnyOrder("good-1", "good-2");
            assertThat(results.values(r -> !r.getTargetId().startsWith("good"))).isEmpty();
            assertThat(counter(worker, "INVALID_DEFINITION")).isEqualTo(1.0);
            assertThat(counter(worker, "NOT_AVRO_WIRE_FORMAT")).isEqualTo(1.0);
        }
    }

    @Test
    @Timeout(60)
    void updatesApplyLive(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String region = "eu-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(2);
             DefinitionWriter writer = new DefinitionWriter(kafka, topics);
             TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             ProberWorker worker = worker(kafka, topics, region)) {
            InetSocketAddress first = farm.targets().get(0).socketAddress();
            InetSocketAddress second = farm.targets().get(1).socketAddress();
            for (String id : List.of("moved", "disabled", "deleted", "elsewhere", "kept")) {
                writer.put(tcp(id, first));
            }
            Await.until(Duration.ofSeconds(20), () -> worker.probedTargets().size() == 5 && worker.ready()
                            && List.of("moved", "disabled", "deleted", "elsewhere", "kept").stream()
                            .allMatch(id -> countFor(results, id) >= 1),
                    () -> "probed: " + worker.probedTargets());

            TargetSpec moved = tcp("moved", second);
            writer.put(moved);
            writer.put(tcp("disabled", first).withEnabled(false));
            writer.delete("deleted");
            writer.put(tcp("elsewhere", first).withRegions(List.of("other-region"), QuorumPolicy.ANY, 1));
            Await.until(Duration.ofSeconds(10), () -> worker.probedTargets().equals(java.util.Set.of("moved", "kept")),
                    () -> "probed: " + worker.probedTargets());
            long changedAt = System.currentTimeMillis();

            Await.until(Duration.ofSeconds(10), () -> countAfter(results, "kept", changedAt) >= 3,
                    () -> "kept results after the change: " + countAfter(results, "kept", changedAt));
            for (String stopped : List.of("disabled", "deleted", "elsewhere")) {
                assertThat(countAfter(results, stopped, changedAt)).as(stopped).isZero();
            }
            List<ProbeResult> movedAfter = results.values(r -> r.getTargetId().equals("moved")
                    && r.getStartedAtMs() > changedAt);
            assertThat(movedAfter).isNotEmpty().allSatisfy(r ->
                    assertThat(r.getGeneration()).isEqualTo(ProbeFingerprint.of(moved)));
            assertThat(ProbeFingerprint.of(moved)).isNotEqualTo(ProbeFingerprint.of(tcp("moved", first)));
        }
    }

    @Test
    @Timeout(60)
    void everyRegionProbesEveryTargetMeantForIt(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String east = "east-" + suffix;
        String west = "west-" + suffix;
        try (TargetFarm farm = TargetFarm.tcp(1);
             DefinitionWriter writer = new DefinitionWriter(kafka, topics);
             TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             ProberWorker eastWorker = worker(kafka, topics, east);
             ProberWorker westWorker = worker(kafka, topics, west)) {
            InetSocketAddress at = farm.targets().get(0).socketAddress();
            writer.put(tcp("everywhere", at));
            writer.put(tcp("east-only", at).withRegions(List.of(east), QuorumPolicy.ANY, 1));

            Await.until(Duration.ofSeconds(20), () -> regionsOf(results, "everywhere").size() == 2
                            && !regionsOf(results, "east-only").isEmpty(),
                    () -> "regions seen: everywhere " + regionsOf(results, "everywhere") + ", east-only "
                            + regionsOf(results, "east-only"));
            long seen = System.currentTimeMillis();
            Await.until(Duration.ofSeconds(10), () -> countAfter(results, "east-only", seen) >= 3,
                    () -> "east-only results: " + countAfter(results, "east-only", seen));

            assertThat(regionsOf(results, "everywhere")).containsExactlyInAnyOrder(east, west);
            assertThat(regionsOf(results, "east-only")).containsExactly(east);
            assertThat(eastWorker.probedTargets()).containsExactlyInAnyOrder("everywhere", "east-only");
            assertThat(westWorker.probedTargets()).containsExactly("everywhere");
        }
    }

    @Test
    @Timeout(60)
    void unreachableRegistryDelaysDefinitionsButNeverRejectsThem(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String region = "retry-" + UUID.randomUUID().toString().substring(0, 8);
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
        AtomicInteger outages = new AtomicInteger(3);
        Deserializer<TargetDefinition> flaky = (topic, data) -> {
            if (outages.getAndDecrement() > 0) {
                throw new SerializationException("schema registry unreachable (simulated)");
            }
            return serde.deserializer().deserialize(topic, data);
        };
        Map<String, TargetSpec> scheduled = new ConcurrentHashMap<>();
        AtomicInteger rejections = new AtomicInteger();
        ProberConfig config = ProberConfig.from(ProberHandoverIT.settings(kafka, topics, region, "solo"));
        try (TargetFarm farm = TargetFarm.tcp(1);
             DefinitionWriter writer = new DefinitionWriter(kafka, topics);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(config));
             TargetAssignment assignment = new TargetAssignment(new KafkaConsumer<>(KafkaClients.consumer(config)),
                     topics.targets(), region, flaky, TargetSink.of(s -> scheduled.put(s.id(), s), scheduled::remove),
                     producer, topics.rejected(), config.rejectedBy(), reason -> rejections.incrementAndGet(),
                     () -> 1, Ticker.system())) {
            writer.put(tcp("a", farm.targets().get(0).socketAddress()));
            assignment.start();

            Await.until(Duration.ofSeconds(20), () -> scheduled.containsKey("a") && assignment.ready(),
                    () -> "scheduled: " + scheduled.keySet() + ", outages left: " + outages.get());

            assertThat(outages.get()).isNegative();
            assertThat(rejections.get()).isZero();
            assertThat(assignment.ownedTargets()).isEqualTo(1);
        }
    }

    @Test
    @Timeout(60)
    void notReadyUntilTheTargetsTopicExistsAndNeverCreatesIt(TestKafka kafka) throws Exception {
        Topics topics = new Topics("late-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        String region = "late-" + UUID.randomUUID().toString().substring(0, 8);
        HttpClient http = HttpClient.newHttpClient();
        try (ProberWorker worker = worker(kafka, topics, region)) {
            URI base = URI.create("http://127.0.0.1:" + worker.opsPort());
            Await.holdsFor(Duration.ofSeconds(3), () -> status(http, base.resolve("/readyz")) == 503
                            && status(http, base.resolve("/healthz")) == 200,
                    () -> "ready (or unhealthy) without a targets topic");
            try (Admin admin = kafka.admin()) {
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).doesNotContain(topics.targets());
            }

            kafka.createTopic(topics.targets(), 3, true);
            kafka.createTopic(topics.probeResults(), 3, false);
            Await.until(Duration.ofSeconds(30), worker::ready, () -> "worker not ready after the topic appeared");
            assertThat(status(http, base.resolve("/readyz"))).isEqualTo(200);
        }
    }

    private static int status(HttpClient http, URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static java.util.Set<String> regionsOf(TopicRecorder<ProbeResult> results, String id) {
        return results.values(r -> r.getTargetId().equals(id)).stream().map(ProbeResult::getRegion)
                .collect(java.util.stream.Collectors.toSet());
    }

    private static TargetSpec tcp(String id, InetSocketAddress at) {
        return TargetSpec.of(id, "g", at.getAddress().getHostAddress(), at.getPort(), Protocol.TCP)
                .withTiming(INTERVAL_MS, 200);
    }

    private static long countFor(TopicRecorder<ProbeResult> results, String id) {
        return results.values(r -> r.getTargetId().equals(id)).size();
    }

    private static long countAfter(TopicRecorder<ProbeResult> results, String id, long after) {
        return results.values(r -> r.getTargetId().equals(id) && r.getStartedAtMs() > after).size();
    }

    private static double counter(ProberWorker worker, String reason) {
        return worker.registry().scrape().stream()
                .filter(s -> s.getMetadata().getName().equals("healthmesh_prober_rejected_definitions"))
                .flatMap(s -> s.getDataPoints().stream())
                .filter(d -> reason.equals(d.getLabels().get("reason")))
                .mapToDouble(d -> ((io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot) d).getValue())
                .sum();
    }

    private static ConsumerRecord<byte[], byte[]> byKey(List<ConsumerRecord<byte[], byte[]>> records, String key) {
        return records.stream().filter(r -> key.equals(new String(r.key(), StandardCharsets.UTF_8))).findFirst()
                .orElseThrow(() -> new AssertionError("no rejected record with key " + key));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readRejected(TestKafka kafka, Topics topics, int expected) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition p = new TopicPartition(topics.rejected(), 0);
            consumer.assign(List.of(p));
            consumer.seekToBeginning(List.of(p));
            Await.until(Duration.ofSeconds(15), () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
                return out.size() >= expected;
            }, () -> "rejected records: " + out.size());
        }
        return out;
    }

    /** Writes definitions (Avro), raw bytes and tombstones to the targets topic. */
    private static final class DefinitionWriter implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final AvroSerde<TargetDefinition> serde;
        private final String topic;

        DefinitionWriter(TestKafka kafka, Topics topics) {
            this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                    new ByteArraySerializer(), new ByteArraySerializer());
            this.serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
            this.topic = topics.targets();
        }

        byte[] encode(TargetSpec spec) {
            return serde.serializer().serialize(topic, TargetSpecs.toAvro(spec));
        }

        void put(TargetSpec spec) throws Exception {
            putRaw(spec.id(), encode(spec));
        }

        void delete(String id) throws Exception {
            putRaw(id, null);
        }

        void putRaw(String key, byte[] value) throws Exception {
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(5));
            serde.close();
        }
    }
}
