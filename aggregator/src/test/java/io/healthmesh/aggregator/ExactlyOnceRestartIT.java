package io.healthmesh.aggregator;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.ChildWorker;
import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once across a crash: the same input is aggregated twice, once by an uninterrupted aggregator and once by
 * one that is SIGKILLed mid-stream (a child JVM) and restarted; a {@code read_committed} consumer must see the same
 * state events, key by key and in order, in both: nothing lost, nothing repeated.
 *
 * <p>The input is deterministic: records carry unique increasing timestamps, and the targets of a group all live in
 * one input partition, so the order of events per key depends only on the input (Kafka Streams merges a task's
 * partitions by timestamp). Wall-clock fields ({@code updatedAtMs}) are left out of the comparison, and staleness is
 * pushed out of reach (factor 100) because it depends on the wall clock by design.
 */
@ExtendWith(KafkaExtension.class)
class ExactlyOnceRestartIT {

    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceRestartIT.class);
    private static final int PARTITIONS = 2;
    private static final int TARGETS = 16;
    private static final int ROUNDS = 900;
    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static final List<String> MULTI = List.of("ap", "eu", "us");

    @TempDir
    Path dir;

    /** One input record, produced identically to both runs. */
    private record Input(boolean definition, String key, Object value, long timestamp) {
    }

    private static int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    /** Targets, flapping results from one or three regions, and redefinitions, deletions and a group move. */
    private static List<Input> input(long base) {
        List<Input> in = new ArrayList<>();
        long[] clock = {base};
        Map<String, TargetSpec> specs = new TreeMap<>();
        Map<Integer, Integer> perPartition = new HashMap<>();
        for (int i = 0; i < TARGETS; i++) {
            String id = String.format("tgt-%02d", i);
            int p = partitionOf(id);
            int index = perPartition.merge(p, 1, Integer::sum) - 1;
            // groups of three targets, never spanning input partitions
            TargetSpec spec = TargetSpec.of(id, "g" + p + "-" + index / 3, "10.9.0." + (i + 1), 80, Protocol.TCP)
                    .withTiming(1_000, 500).withThresholds(2, 2)
                    .withRegions(i % 2 == 0 ? List.of() : MULTI, QuorumPolicy.MAJORITY, 1);
            specs.put(id, spec);
            in.add(new Input(true, id, TargetSpecs.toAvro(spec), clock[0]++));
        }
        Random random = new Random(20_261_130);
        Map<String, Boolean> up = new HashMap<>();
        Map<String, Long> current = new HashMap<>();
        specs.forEach((id, s) -> current.put(id, ProbeFingerprint.of(s)));
        Consumer<TargetSpec> redefine = s -> {
            specs.put(s.id(), s);
            in.add(new Input(true, s.id(), TargetSpecs.toAvro(s), clock[0]++));
        };
        for (int round = 0; round < ROUNDS; round++) {
            switch (round) {
                case 150 -> redefine.accept(specs.get("tgt-00").withThresholds(3, 3));
                case 300 -> redefine.accept(new TargetSpec("tgt-01", specs.get("tgt-01").group(), "10.9.1.1", 81,
                        Protocol.TCP, 1_000, 500, 2, 2, true, 10, null, null, null, null, MULTI,
                        QuorumPolicy.ALL, 1));
                case 450 -> in.add(new Input(true, "tgt-02", null, clock[0]++));
                case 500 -> redefine.accept(specs.get("tgt-02"));
                case 600 -> {
                    TargetSpec mover = specs.get("tgt-03");
                    String target = specs.values().stream().filter(s -> partitionOf(s.id()) == partitionOf("tgt-03")
                            && !s.group().equals(mover.group())).findFirst().orElseThrow().group();
                    redefine.accept(mover.withGroup(target));
                }
                default -> { }
            }
            for (TargetSpec spec : specs.values()) {
                // results already in flight keep the old generation for a round: they must be ignored
                long generation = current.put(spec.id(), ProbeFingerprint.of(spec));
                for (String region : spec.regions().isEmpty() ? List.of("default") : spec.regions()) {
                    String runKey = spec.id() + "/" + region;
                    if (random.nextInt(4) == 0) {
                        up.put(runKey, !up.getOrDefault(runKey, true));
                    }
                    boolean ok = up.getOrDefault(runKey, true);
                    long t = clock[0]++;
                    in.add(new Input(false, spec.id(), ProbeResult.newBuilder().setTargetId(spec.id())
                            .setGeneration(generation).setRegion(region).setProberId("p-" + region)
                            .setProtocol(io.healthmesh.schema.Protocol.TCP).setStartedAtMs(t)
                            .setOutcome(ok ? ProbeOutcome.SUCCESS : ProbeOutcome.CONNECTION_REFUSED)
                            .setLatencyMicros(0).build(), t));
                }
            }
        }
        return in;
    }

    private static Map<String, String> settings(TestKafka kafka, String appId, Topics topics, Path stateDir) {
        Map<String, String> s = AggregatorWorkerIT.settings(kafka, appId, topics.prefix(), stateDir);
        s.put("staleness.factor", "100");
        s.put("partitions", Integer.toString(PARTITIONS));
        s.put("kafka.max.poll.records", "100");
        return s;
    }

    private static void produce(TestKafka kafka, Topics topics, List<Input> input) {
        try (BrokerRecords broker = new BrokerRecords(kafka, topics)) {
            for (Input i : input) {
                if (i.definition()) {
                    if (i.value() == null) {
                        broker.delete(i.key(), i.timestamp());
                    } else {
                        broker.define((io.healthmesh.schema.TargetDefinition) i.value(), i.timestamp());
                    }
                } else {
                    broker.result((ProbeResult) i.value(), i.timestamp());
                }
            }
            broker.flush();
        }
    }

    /**
     * Waits until the application has committed every input offset, then every offset of its repartition topic.
     * Exactly-once writes the repartitioned records in the same transaction as the input offsets, so once the
     * inputs are committed the repartition topic's end is final; once that is committed too, the group stage has
     * written everything it ever will.
     */
    private static void awaitDone(TestKafka kafka, String appId, Topics topics)
            throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        try (Admin admin = kafka.admin()) {
            awaitCommitted(admin, appId, List.of(topics.targets(), topics.probeResults()), deadline);
            List<String> repartition = admin.listTopics().names().get().stream()
                    .filter(t -> t.startsWith(appId + "-") && t.endsWith("-repartition")).sorted().toList();
            assertThat(repartition).as("repartition topics of " + appId).isNotEmpty();
            awaitCommitted(admin, appId, repartition, deadline);
        }
    }

    private static void awaitCommitted(Admin admin, String appId, List<String> topicNames, long deadline)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topicNames).allTopicNames().get().forEach((topic, description) ->
                description.partitions().forEach(p ->
                        latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> end = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, info) -> end.put(tp, info.offset()));
        AtomicReference<Map<TopicPartition, OffsetAndMetadata>> committed = new AtomicReference<>(Map.of());
        Await.until(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), () -> {
            try {
                committed.set(admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata().get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
            // an empty partition needs no commit; any other must be committed up to its end
            return end.entrySet().stream().allMatch(e -> e.getValue() == 0
                    || committed.get().get(e.getKey()) != null && committed.get().get(e.getKey()).offset() >= e.getValue());
        }, () -> appId + " consumed " + topicNames + ": " + committed.get() + " vs " + end);
    }

    /** Per key, in order, everything an event says except when it was produced. */
    private static Map<String, List<String>> events(BrokerRecords reader, Topics topics, TestKafka kafka) {
        Map<String, List<String>> byKey = new TreeMap<>();
        AvroSerde<TargetHealth> health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
        AvroSerde<GroupHealth> groups = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig());
        for (ConsumerRecord<String, TargetHealth> r : reader.readAll(topics.healthState(), health.deserializer(), PATIENCE)) {
            TargetHealth v = r.value();
            if (v != null) {
                v.setUpdatedAtMs(0L);
            }
            byKey.computeIfAbsent("health/" + r.key(), k -> new ArrayList<>()).add(String.valueOf(v));
        }
        for (ConsumerRecord<String, GroupHealth> r : reader.readAll(topics.groupState(), groups.deserializer(), PATIENCE)) {
            GroupHealth v = r.value();
            if (v != null) {
                v.setUpdatedAtMs(0L);
            }
            byKey.computeIfAbsent("group/" + r.key(), k -> new ArrayList<>()).add(String.valueOf(v));
        }
        for (ConsumerRecord<String, byte[]> r : reader.readAll(topics.rejected(), BrokerRecords.bytes(), PATIENCE)) {
            byKey.computeIfAbsent("rejected/" + r.key(), k -> new ArrayList<>()).add(
                    new String(r.headers().lastHeader(RejectedHeaders.REASON).value(), StandardCharsets.UTF_8) + "@"
                            + new String(r.headers().lastHeader(RejectedHeaders.SOURCE_OFFSET).value(),
                            StandardCharsets.UTF_8));
        }
        health.close();
        groups.close();
        return byKey;
    }

    private static int count(Map<String, List<String>> events) {
        return events.values().stream().mapToInt(List::size).sum();
    }

    @Test
    @SuppressWarnings("try") // the reference worker only needs to run while its block does
    void aKilledAggregatorRestartsWithoutLosingOrRepeatingAStateEvent(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Topics reference = new Topics("eos-ref-" + run + ".");
        Topics crashed = new Topics("eos-kill-" + run + ".");
        List<Input> input = input(System.currentTimeMillis() - Duration.ofHours(1).toMillis());
        try (Admin admin = kafka.admin()) {
            TopicSetup.ensure(admin, reference, PARTITIONS, TopicReplication.singleCopy());
            TopicSetup.ensure(admin, crashed, PARTITIONS, TopicReplication.singleCopy());
        }
        produce(kafka, reference, input);
        produce(kafka, crashed, input);
        LOG.info("produced {} input records to each run", input.size());

        Map<String, List<String>> expected;
        try (BrokerRecords reader = new BrokerRecords(kafka, reference)) {
            long started = System.nanoTime();
            String appId = "eos-ref-" + run;
            try (AggregatorWorker worker = AggregatorWorker.start(
                    AggregatorConfig.from(settings(kafka, appId, reference, dir.resolve("ref"))))) {
                awaitDone(kafka, appId, reference);
            }
            expected = events(reader, reference, kafka);
            LOG.info("uninterrupted run: {} events in {} ms", count(expected),
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
        }
        assertThat(count(expected)).as("the input makes plenty of state changes").isGreaterThan(1_000);
        assertThat(expected.keySet()).anyMatch(k -> k.startsWith("rejected/"));

        String appId = "eos-kill-" + run;
        Map<String, String> childSettings = settings(kafka, appId, crashed, dir.resolve("kill-state"));
        int seenAtKill;
        try (BrokerRecords reader = new BrokerRecords(kafka, crashed)) {
            ChildWorker first = ChildWorker.start(ChildAggregator.class, childSettings, dir, "first");
            try {
                reader.readUntil(crashed.healthState(), BrokerRecords.bytes(), read -> read.size() >= 50, PATIENCE);
            } catch (AssertionError e) {
                throw new AssertionError("the child aggregator produced nothing:\n" + first.output(), e);
            }
            first.kill();
            seenAtKill = reader.readAll(crashed.healthState(), BrokerRecords.bytes(), PATIENCE).size();
            LOG.info("killed the aggregator after {} committed state events", seenAtKill);
            try (ChildWorker second = ChildWorker.start(ChildAggregator.class, childSettings, dir, "second")) {
                try {
                    awaitDone(kafka, appId, crashed);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\n" + second.output(), e);
                }
            }
            Map<String, List<String>> actual = events(reader, crashed, kafka);
            assertThat(seenAtKill).as("the kill came mid-stream").isLessThan(
                    expected.keySet().stream().filter(k -> k.startsWith("health/")).mapToInt(k -> expected.get(k).size())
                            .sum());
            assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
            for (Map.Entry<String, List<String>> e : expected.entrySet()) {
                assertThat(actual.get(e.getKey())).as("events of %s", e.getKey()).containsExactlyElementsOf(e.getValue());
            }
        }
    }

    /** The aggregator role in the child JVM. */
    public static final class ChildAggregator implements ChildWorker.Role {
        @Override
        public AutoCloseable start(Map<String, String> settings) {
            return AggregatorWorker.start(AggregatorConfig.from(settings));
        }
    }
}
