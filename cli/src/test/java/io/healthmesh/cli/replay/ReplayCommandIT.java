package io.healthmesh.cli.replay;

import io.healthmesh.testkit.Await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.cli.CliRun;
import io.healthmesh.cli.demo.DemoTcpServer;
import io.healthmesh.cli.demo.Switch;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code replay} on the real broker: a real prober and aggregator watch a TCP backend that flaps with a period this
 * test sets, under thresholds 1/1; replay then says what 3/3 would have done (numbers this test computes from the
 * recorded results) and reproduces the aggregator's events one for one. Bad input: no data in the range, an unknown
 * target, a definition changed inside the range.
 */
@ExtendWith(KafkaExtension.class)
class ReplayCommandIT {

    private static final Duration STARTUP = Duration.ofSeconds(45);
    /**
     * How long the backend flaps: up 2.5 s, down 1 s (two failures at a 500 ms interval, sometimes three), about 8
     * periods, i.e. some 17 flips at thresholds 1/1.
     */
    private static final Duration FLAPPING = Duration.ofSeconds(30);
    /** The probe interval of the flapping target. */
    private static final int INTERVAL_MS = 500;

    private final TestKafka kafka;
    private final ObjectMapper json = new ObjectMapper();

    ReplayCommandIT(TestKafka kafka) {
        this.kafka = kafka;
    }

    @Test
    void fewerFlipsWithThreeThreeAndTheRunAsConfiguredMatchesTheAggregator(@TempDir Path stateDir) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Topics topics = new Topics("replay-" + run + ".");
        Map<String, String> agg = new HashMap<>();
        agg.put("bootstrap.servers", kafka.bootstrapServers());
        agg.put("schema.registry.url", kafka.schemaRegistryUrl());
        agg.put("application.id", "replay-" + run);
        agg.put("topic.prefix", topics.prefix());
        agg.put("state.dir", stateDir.toString());
        agg.put("replication.factor", "1");
        agg.put("replication.single.copy.allowed", "true");
        agg.put("http.host", "127.0.0.1");
        agg.put("http.port", "0");
        agg.put("partitions", "2");
        Map<String, String> prb = new HashMap<>();
        prb.put("bootstrap.servers", kafka.bootstrapServers());
        prb.put("allow.list", "127.0.0.0/8"); // the flapping backend is on loopback, denied by default
        prb.put("schema.registry.url", kafka.schemaRegistryUrl());
        prb.put("region", "r-" + run);
        prb.put("prober.id", "prober-" + run);
        prb.put("topic.prefix", topics.prefix());
        prb.put("http.host", "127.0.0.1");
        prb.put("http.port", "0");
        prb.put("event.loop.threads", "1");
        prb.put("deny.list", String.join(",", ProbeEngineConfig.DEFAULT_DENY_LIST));
        prb.put("kafka.session.timeout.ms", "6000");
        prb.put("kafka.heartbeat.interval.ms", "500");

        Switch flapping = new Switch(Clock.systemUTC(), Duration.ofMillis(2_500), Duration.ofMillis(1_000));
        long toMs;
        try (DemoTcpServer backend = DemoTcpServer.start(0, flapping);
             AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(agg))) {
            await(aggregator::isRunning, "aggregator RUNNING");
            define(topics, TargetSpec.of("flappy", "pool", "127.0.0.1", backend.port(), Protocol.TCP)
                    .withTiming(INTERVAL_MS, 300).withThresholds(1, 1));
            try (ProberWorker prober = ProberWorker.start(ProberConfig.from(prb))) {
                await(prober::ready, "prober ready");
                long until = System.currentTimeMillis() + FLAPPING.toMillis();
                await(() -> System.currentTimeMillis() >= until, "flapping for " + FLAPPING);
            }
            toMs = System.currentTimeMillis();
            awaitConsumed(topics, "replay-" + run);
        }

        List<ConsumerRecord<String, byte[]>> results = readAll(topics.probeResults());
        List<Boolean> outcomes = new ArrayList<>();
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig())) {
            for (ConsumerRecord<String, byte[]> r : results) {
                outcomes.add(serde.deserializer().deserialize(r.topic(), r.value()).getOutcome() == ProbeOutcome.SUCCESS);
            }
        }
        List<HealthStatus> emitted = statusChanges(topics);
        int flipsOneOne = Reference.flips(outcomes, 1, 1);
        int flipsThreeThree = Reference.flips(outcomes, 3, 3);
        // at least two thirds of the probes the interval schedules over the flapping
        assertThat(outcomes).as("results recorded")
                .hasSizeGreaterThan((int) (FLAPPING.toMillis() / INTERVAL_MS * 2 / 3));
        assertThat(flipsOneOne).as("the backend flapped").isGreaterThan(10);
        assertThat(flipsThreeThree).isLessThan(flipsOneOne);
        // the aggregator flipped at every change of outcome: the reference and the emitted events agree
        assertThat(Reference.flips(emitted)).isEqualTo(flipsOneOne);

        CliRun replay = CliRun.of(args(topics, "--to", Instant.ofEpochMilli(toMs).toString(), "--healthy", "3",
                "--unhealthy", "3", "--json"));
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        JsonNode doc = json.readTree(replay.out());
        JsonNode flappy = doc.get("targets").get(0);
        assertThat(flappy.get("targetId").asText()).isEqualTo("flappy");
        assertThat(flappy.get("flipsConfigured").asInt()).isEqualTo(flipsOneOne);
        assertThat(flappy.get("flipsAlternative").asInt()).isEqualTo(flipsThreeThree);
        assertThat(doc.get("resultsReplayed").asLong()).isEqualTo(outcomes.size());
        assertThat(doc.get("selfCheck").get("matches").asBoolean()).isTrue();
        assertThat(doc.get("selfCheck").get("statusChanges").asInt()).isEqualTo(emitted.size());
        assertThat(replay.err()).contains("records/s");
        // no window was ever recorded: every event carried none, and the self-check compared each one
        assertThat(doc.get("selfCheck").get("maintenanceEvents").asInt()).isPositive();
        // the group of one fails open at each of its member's flips to UNHEALTHY: its group events were replayed too
        assertThat(doc.get("selfCheck").get("groups").asInt()).isEqualTo(1);
        assertThat(doc.get("selfCheck").get("groupChanges").asInt()).isGreaterThanOrEqualTo(flipsOneOne);

        // other intervals: an estimate next to the recorded run; the run as configured and its check are unchanged
        CliRun intervals = CliRun.of(args(topics, "--to", Instant.ofEpochMilli(toMs).toString(), "--fast-interval",
                "300ms", "--down-interval", "2s", "--json"));
        assertThat(intervals.exitCode()).as(intervals.err()).isZero();
        JsonNode estimate = json.readTree(intervals.out()).get("intervalEstimate");
        assertThat(estimate.get("method").asText()).startsWith("estimate:");
        JsonNode flappyEstimate = estimate.get("targets").get(0);
        assertThat(flappyEstimate.get("recorded").get("probes").asInt()).isEqualTo(outcomes.size());
        // thresholds 1/1: every failure makes it UNHEALTHY, probed again only 2 s later instead of 500 ms
        assertThat(flappyEstimate.get("estimated").get("probes").asInt())
                .isLessThan(flappyEstimate.get("recorded").get("probes").asInt());
        assertThat(json.readTree(intervals.out()).get("selfCheck").get("matches").asBoolean()).isTrue();
        CliRun refused = CliRun.of(args(topics, "--fast-interval", "300ms", "--profile", "TENCENT_CLB"));
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).contains("flappy under TENCENT_CLB: fastIntervalMs");

        // a range from the middle: started from the aggregator's state (3 s of warm-up), it still matches one for one
        ConsumerRecord<String, byte[]> middle = results.get(results.size() / 2);
        int flipsFromMiddle = Reference.flips(outcomes, 1, 1) - Reference.flips(outcomes.subList(0,
                results.size() / 2), 1, 1);
        CliRun fromMiddle = CliRun.of(args(topics, "--from", Instant.ofEpochMilli(middle.timestamp()).toString(),
                "--to", Instant.ofEpochMilli(toMs).toString(), "--warmup", "3s", "--healthy", "3", "--unhealthy", "3"));
        assertThat(fromMiddle.exitCode()).as(fromMiddle.out() + fromMiddle.err()).isZero();
        assertThat(fromMiddle.out()).contains("self-check: ok");
        assertThat(fromMiddle.out()).containsPattern("(?m)^flappy\\s+pool\\s+" + flipsFromMiddle + "\\s");

        // bad input: a range with no data, an unknown target
        CliRun empty = CliRun.of(args(topics, "--from", "2020-01-01T00:10:00Z", "--to", "2020-01-01T01:00:00Z"));
        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.err()).contains("error: no probe results in " + topics.probeResults()
                + " between 2020-01-01T00:00:00Z and 2020-01-01T01:00:00Z (nothing to replay)");
        CliRun unknown = CliRun.of(args(topics, "--target", "nope"));
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("--target: nope (expected: a target defined in " + topics.targets()
                + "; known: flappy)");
    }

    @Test
    void aDefinitionChangedInsideTheRangeIsAppliedFromItsOffsetOnAndTheRangeIsReadByTime() throws Exception {
        Topics topics = new Topics(kafka.uniqueTopic("replay-def") + ".");
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        TargetSpec v1 = TargetSpec.of("t", "g", "127.0.0.1", 9, Protocol.TCP).withTiming(1_000, 500)
                .withThresholds(1, 1);
        TargetSpec v2 = v1.withThresholds(3, 3);
        long gen = ProbeFingerprint.of(v1);
        // an hour ago, not a fixed date: the broker deletes records older than the topic's retention, and a fixed
        // date falls out of it as the calendar moves on
        long base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1)).toEpochMilli();
        // one result a second for 60 s, failing every 5th: 1/1 flips twice per failure, 3/3 never
        try (AvroSerde<TargetDefinition> defs = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
             AvroSerde<ProbeResult> res = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
             KafkaProducer<String, TargetDefinition> defProducer = producer(defs);
             KafkaProducer<String, ProbeResult> resProducer = producer(res)) {
            defProducer.send(new ProducerRecord<>(topics.targets(), null, base, "t", TargetSpecs.toAvro(v1))).get();
            defProducer.send(new ProducerRecord<>(topics.targets(), null, base + 30_500, "t", TargetSpecs.toAvro(v2)))
                    .get();
            for (int k = 1; k <= 60; k++) {
                long ts = base + k * 1_000L;
                boolean ok = k % 5 != 0;
                resProducer.send(new ProducerRecord<>(topics.probeResults(), null, ts, "t", ProbeResult.newBuilder()
                        .setTargetId("t").setRegion("r").setProberId("p").setGeneration(gen)
                        .setProtocol(io.healthmesh.schema.Protocol.TCP)
                        .setOutcome(ok ? ProbeOutcome.SUCCESS : ProbeOutcome.CONNECTION_REFUSED)
                        .setStartedAtMs(ts - 50).setLatencyMicros(1_000).setSchedulingLagMicros(0)
                        .build()));
            }
            resProducer.flush();
        }
        // from 20 s to 50 s with 5 s of warm-up: results 15..50 are read, not the whole topic
        CliRun run = CliRun.of(args(topics, "--from", Instant.ofEpochMilli(base + 20_000).toString(), "--to",
                Instant.ofEpochMilli(base + 50_000).toString(), "--warmup", "5s", "--no-check"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("read 36 records of " + topics.probeResults());
        assertThat(run.out()).contains("note: definition of t changed at " + Instant.ofEpochMilli(base + 30_500) + " (offset 1): ")
                .contains("thresholds 3/3").contains("applied from that offset on");
        // 1/1 until 30.5 s: the failures at 20 and 25 s flip down and back (4), the one at 30 s flips down (5);
        // 3/3 from 30.5 s: back to HEALTHY only at the third success, 33 s (6); single failures (35, 40, 45, 50 s)
        // flip nothing
        assertThat(run.out()).containsPattern("(?m)^t\\s+g\\s+6\\s");
    }

    private String[] args(Topics topics, String... extra) {
        List<String> all = new ArrayList<>(List.of("replay", "--bootstrap-server", kafka.bootstrapServers(),
                "--schema-registry", kafka.schemaRegistryUrl(), "--topic-prefix", topics.prefix()));
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    private <T extends org.apache.avro.specific.SpecificRecord> KafkaProducer<String, T> producer(AvroSerde<T> serde) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), serde.serializer());
    }

    private void define(Topics topics, TargetSpec spec) throws Exception {
        try (AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
             KafkaProducer<String, TargetDefinition> p = producer(serde)) {
            p.send(new ProducerRecord<>(topics.targets(), spec.id(), TargetSpecs.toAvro(spec))).get();
        }
    }

    /** Waits until the aggregator's group has committed every probe result (it has judged them all). */
    private void awaitConsumed(Topics topics, String groupId) {
        try (Admin admin = kafka.admin()) {
            await(() -> {
                try {
                    Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                            .partitionsToOffsetAndMetadata().get();
                    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                    for (int p = 0; p < 2; p++) {
                        latest.put(new TopicPartition(topics.probeResults(), p), OffsetSpec.latest());
                    }
                    var ends = admin.listOffsets(latest).all().get();
                    return ends.entrySet().stream().allMatch(e -> {
                        OffsetAndMetadata c = committed.get(e.getKey());
                        return e.getValue().offset() == 0 || (c != null && c.offset() >= e.getValue().offset());
                    });
                } catch (Exception e) {
                    return false;
                }
            }, "aggregator consumed every probe result");
        }
    }

    private List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
            long deadline = System.currentTimeMillis() + STARTUP.toMillis();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                assertThat(System.currentTimeMillis()).as("read " + topic).isLessThan(deadline);
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    /** The statuses the aggregator's events went through, consecutive repeats collapsed. */
    private List<HealthStatus> statusChanges(Topics topics) {
        List<HealthStatus> out = new ArrayList<>();
        try (AvroSerde<TargetHealth> serde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig())) {
            for (ConsumerRecord<String, byte[]> r : readAll(topics.healthState())) {
                HealthStatus s = serde.deserializer().deserialize(r.topic(), r.value()).getStatus();
                if (out.isEmpty() || out.get(out.size() - 1) != s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static void await(BooleanSupplier condition, String what) {
        Await.until(STARTUP.plus(FLAPPING), condition, () -> what);
    }

    /** A reference model of BEHAVIOUR.md section 2's counters for one region, independent of the aggregator's code. */
    static final class Reference {

        static int flips(List<Boolean> outcomes, int healthy, int unhealthy) {
            String status = "DETECTING";
            int successes = 0;
            int failures = 0;
            int flips = 0;
            for (boolean ok : outcomes) {
                successes = ok ? successes + 1 : 0;
                failures = ok ? 0 : failures + 1;
                String next = status;
                if (successes >= healthy && !status.equals("HEALTHY")) {
                    next = "HEALTHY";
                } else if (failures >= unhealthy && !status.equals("UNHEALTHY")) {
                    next = "UNHEALTHY";
                }
                if (!next.equals(status) && !status.equals("DETECTING")) {
                    flips++;
                }
                status = next;
            }
            return flips;
        }

        static int flips(List<HealthStatus> statuses) {
            int flips = 0;
            for (int i = 1; i < statuses.size(); i++) {
                HealthStatus a = statuses.get(i - 1);
                HealthStatus b = statuses.get(i);
                if ((a == HealthStatus.HEALTHY || a == HealthStatus.UNHEALTHY)
                        && (b == HealthStatus.HEALTHY || b == HealthStatus.UNHEALTHY) && a != b) {
                    flips++;
                }
            }
            return flips;
        }
    }
}
