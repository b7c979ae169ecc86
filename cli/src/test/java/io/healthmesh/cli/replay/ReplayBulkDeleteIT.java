package io.healthmesh.cli.replay;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.cli.CliRun;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicReads;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The self-check after a bulk change: targets are deleted just before the range's end, after the aggregator's last
 * commit (here: after it stopped), so it never emitted their deletion. Bounded by the aggregator's committed progress
 * on its inputs, replay leaves those deletions out and matches; unbounded (a group that committed nothing) it reports
 * each deleted target, which is what scripting the self-check after a bulk change met before.
 */
@ExtendWith(KafkaExtension.class)
class ReplayBulkDeleteIT {

    private static final int TARGETS = 6;
    private static final int DELETED = 4;
    private static final int INTERVAL_MS = 30_000;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(180)
    void deletionsTheAggregatorHasNotProcessedAreNoMismatch(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Topics topics = new Topics("bulk-" + run + ".");
        String appId = "bulk-" + run;
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 2, TopicReplication.singleCopy());
        }
        List<TargetSpec> specs = new ArrayList<>();
        for (int i = 0; i < TARGETS; i++) {
            specs.add(TargetSpec.of("bulk-" + i, "pool", "127.0.0.1", 9, Protocol.TCP).withTiming(INTERVAL_MS, 1_000)
                    .withThresholds(1, 1));
        }
        try (AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(settings(kafka, topics, appId)));
             AvroSerde<TargetDefinition> defs = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
             AvroSerde<ProbeResult> res = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
             KafkaProducer<String, TargetDefinition> defProducer = producer(kafka, defs);
             KafkaProducer<String, ProbeResult> resProducer = producer(kafka, res)) {
            Await.until(Duration.ofSeconds(90), aggregator::isRunning, () -> "aggregator not RUNNING");
            // the definitions dated before the results, so that record time and arrival agree on their order
            long now = System.currentTimeMillis();
            for (TargetSpec spec : specs) {
                defProducer.send(new ProducerRecord<>(topics.targets(), null, now - 5_000, spec.id(),
                        TargetSpecs.toAvro(spec))).get();
            }
            for (TargetSpec spec : specs) {
                for (int k = 2; k >= 0; k--) {
                    long ts = now - k * 1_000L;
                    resProducer.send(new ProducerRecord<>(topics.probeResults(), null, ts, spec.id(),
                            ProbeResult.newBuilder().setTargetId(spec.id()).setRegion("r").setProberId("p")
                                    .setGeneration(ProbeFingerprint.of(spec))
                                    .setProtocol(io.healthmesh.schema.Protocol.TCP).setOutcome(ProbeOutcome.SUCCESS)
                                    .setStartedAtMs(ts - 10).setLatencyMicros(1_000).setSchedulingLagMicros(0)
                                    .build()));
                }
            }
            resProducer.flush();
            Await.until(Duration.ofSeconds(60), () -> healthy(kafka, topics) == TARGETS,
                    () -> healthy(kafka, topics) + " of " + TARGETS + " targets HEALTHY in " + topics.healthState());
        }
        // the bulk delete, after the aggregator's last commit
        try (KafkaProducer<String, byte[]> tombstones = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < DELETED; i++) {
                tombstones.send(new ProducerRecord<>(topics.targets(), "bulk-" + i, null)).get();
            }
        }
        String to = Instant.ofEpochMilli(System.currentTimeMillis()).toString();

        CliRun bounded = CliRun.of(args(kafka, topics, "--to", to, "--aggregator-group", appId));
        assertThat(bounded.exitCode()).as(bounded.out() + bounded.err()).isZero();
        assertThat(bounded.out()).contains("self-check: ok");

        CliRun unbounded = CliRun.of(args(kafka, topics, "--to", to, "--aggregator-group", "no-such-" + run));
        assertThat(unbounded.exitCode()).as(unbounded.out() + unbounded.err()).isEqualTo(ReplayCommand.MISMATCH);
        assertThat(unbounded.err()).contains("group no-such-" + run + " committed no offsets");
        for (int i = 0; i < DELETED; i++) {
            assertThat(unbounded.out()).contains("bulk-" + i + ": replay produced");
        }
    }

    private static long healthy(TestKafka kafka, Topics topics) {
        Map<String, HealthStatus> last = new HashMap<>();
        try (AvroSerde<TargetHealth> serde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig())) {
            TopicReads.readCommitted(kafka.bootstrapServers(), topics.healthState(), serde.deserializer(),
                            TopicReads.PATIENCE)
                    .forEach(r -> last.put(r.key(), r.value() == null ? null : r.value().getStatus()));
        }
        return last.values().stream().filter(s -> s == HealthStatus.HEALTHY).count();
    }

    private Map<String, String> settings(TestKafka kafka, Topics topics, String appId) {
        Map<String, String> agg = new HashMap<>();
        agg.put("bootstrap.servers", kafka.bootstrapServers());
        agg.put("schema.registry.url", kafka.schemaRegistryUrl());
        agg.put("application.id", appId);
        agg.put("topic.prefix", topics.prefix());
        agg.put("state.dir", stateDir.toString());
        agg.put("replication.factor", "1");
        agg.put("replication.single.copy.allowed", "true");
        agg.put("http.host", "127.0.0.1");
        agg.put("http.port", "0");
        agg.put("partitions", "2");
        return agg;
    }

    private String[] args(TestKafka kafka, Topics topics, String... extra) {
        List<String> all = new ArrayList<>(List.of("replay", "--bootstrap-server", kafka.bootstrapServers(),
                "--schema-registry", kafka.schemaRegistryUrl(), "--topic-prefix", topics.prefix()));
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> KafkaProducer<String, T> producer(
            TestKafka kafka, AvroSerde<T> serde) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), serde.serializer());
    }
}
