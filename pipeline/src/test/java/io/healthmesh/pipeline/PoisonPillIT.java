package io.healthmesh.pipeline;

import io.healthmesh.testkit.Await;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.fuzz.FuzzCorpus;
import io.healthmesh.testkit.fuzz.FuzzInput;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11's finding on the real broker, then a short live fuzz run. A definition whose regions list holds a
 * 70,000-character name used to stop the aggregator's task for its partition for good (the store's
 * {@code writeUTF} threw, the replaced thread replayed the record): valid targets written after it on that
 * partition never got a state. Here the record is rejected by the prober and the aggregator, hostile definitions,
 * results and writer schemas follow, and then valid targets on every partition all reach a decided state within
 * their detection window (plus pipeline slack); no stream thread died and the prober is still ready.
 */
@ExtendWith(KafkaExtension.class)
class PoisonPillIT {

    private static final int INTERVAL_MS = 1_000;
    private static final int TIMEOUT_MS = 500;
    private static final int THRESHOLD = 2;
    private static final int VALID_PER_PARTITION = 12;
    private static final Duration PATIENCE = Duration.ofSeconds(40);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void aSeventyThousandCharacterRegionThenHostileInputsThenValidTargetsOnEveryPartitionAllReachAState(
            TestKafka kafka) {
        try (Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            ProberWorker prober = pipeline.startProber("a", List.of());
            String region = pipeline.region("a");

            pipeline.define(TargetSpec.of("finding-1", "pool", "127.0.0.1", 1, Protocol.TCP)
                    .withRegions(List.of("x".repeat(70_000)), QuorumPolicy.MAJORITY, 1));

            SchemaRegistryClient registry = RegistryClients.fromConfig(kafka.serdeConfig());
            FuzzCorpus corpus = new FuzzCorpus(31, kafka.serdeConfig(), registry::register,
                    pipeline.aggregatorConfig().topics().targets(), pipeline.aggregatorConfig().topics().probeResults());
            int[] sent = {0};
            corpus.forEach(200, 20, input -> {
                pipeline.sendRaw(false, input.key(), input.value());
                sent[0]++;
            });
            pipeline.flushRaw();

            List<TargetSpec> valid = validTargetsOnEveryPartition(region);
            long definedAt = System.currentTimeMillis();
            valid.forEach(pipeline::define);
            for (int i = 0; i < 100; i++) {
                FuzzInput result = corpus.mutatedResult(valid, System.currentTimeMillis());
                pipeline.sendRaw(true, result.key(), result.value());
            }
            pipeline.flushRaw();

            for (TargetSpec spec : valid) {
                Await.until(PATIENCE, () -> pipeline.health().of(spec.id()).stream()
                                .anyMatch(e -> e.value() != null && e.value().getStatus() == HealthStatus.UNHEALTHY),
                        () -> spec.id() + " never reached UNHEALTHY; events: " + pipeline.health().of(spec.id()));
            }
            long slowest = valid.stream().mapToLong(spec -> pipeline.health().of(spec.id()).stream()
                    .filter(e -> e.value() != null && e.value().getStatus() == HealthStatus.UNHEALTHY)
                    .mapToLong(e -> e.receivedAtMs()).min().orElseThrow()).max().orElseThrow() - definedAt;
            System.out.printf("PoisonPillIT: %d hostile inputs, then %d valid targets on %d partitions all "
                    + "UNHEALTHY within %d ms of being defined%n", sent[0] + 101, valid.size(), Pipeline.PARTITIONS,
                    slowest);

            Map<String, List<String>> finding = rejectedBy(kafka, pipeline, "finding-1");
            assertThat(finding.keySet()).contains("aggregator").anyMatch(by -> by.startsWith("prober/" + region + "/"));
            assertThat(finding.values()).allSatisfy(reasons -> assertThat(reasons).containsOnly("INVALID_DEFINITION"));
            assertThat(pipeline.aggregator().streamThreadFailures()).as("stream threads that died").isZero();
            assertThat(pipeline.aggregator().isRunning()).isTrue();
            assertThat(prober.ready()).as("the prober still reads its targets").isTrue();
        }
    }

    /** Valid TCP targets towards a closed loopback port, {@link #VALID_PER_PARTITION} on each partition. */
    private static List<TargetSpec> validTargetsOnEveryPartition(String region) {
        Map<Integer, Integer> perPartition = new HashMap<>();
        List<TargetSpec> out = new ArrayList<>();
        for (int i = 0; out.size() < VALID_PER_PARTITION * Pipeline.PARTITIONS; i++) {
            String id = "valid-" + i;
            int partition = Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % Pipeline.PARTITIONS;
            if (perPartition.merge(partition, 1, Integer::sum) <= VALID_PER_PARTITION) {
                out.add(TargetSpec.of(id, "valid", "127.0.0.1", 1, Protocol.TCP).withTiming(INTERVAL_MS, TIMEOUT_MS)
                        .withThresholds(THRESHOLD, THRESHOLD)
                        .withRegions(List.of(region), QuorumPolicy.MAJORITY, 1));
            }
        }
        return out;
    }

    /** Who rejected {@code key} and with which reasons, read from the rejected topic (waits for both workers). */
    private static Map<String, List<String>> rejectedBy(TestKafka kafka, Pipeline pipeline, String key) {
        String topic = pipeline.aggregatorConfig().topics().rejected();
        Map<String, List<String>> found = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "4000000",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Await.until(PATIENCE, () -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(header(r, RejectedHeaders.REASON)).as("every rejected record has a reason").isNotBlank();
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        found.computeIfAbsent(header(r, RejectedHeaders.REJECTED_BY), k -> new ArrayList<>())
                                .add(header(r, RejectedHeaders.REASON));
                    }
                }
                return found.size() >= 2;
            }, () -> key + " rejected by " + found + " (expected: the aggregator and the prober)");
        }
        return found;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
