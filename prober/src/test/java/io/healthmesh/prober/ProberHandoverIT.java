package io.healthmesh.prober;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.healthmesh.testkit.farm.TargetFarm;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two prober workers of one region share 200 loopback targets through the consumer group; when one stops,
 * the other takes every target over within the session timeout plus two intervals, and no target is ever
 * probed by both.
 */
@ExtendWith(KafkaExtension.class)
class ProberHandoverIT {

    private static final int TARGETS = 200;
    private static final int INTERVAL_MS = 1_000;
    private static final int SESSION_TIMEOUT_MS = 6_000;   // the broker's group.min.session.timeout.ms

    @Test
    @Timeout(60)
    void targetsSplitBetweenTwoWorkersAndMoveToTheSurvivorWhenOneStops(TestKafka kafka) throws Exception {
        splitAndHandOver(kafka, false);
    }

    /**
     * A worker that vanishes without leaving the group (as a crashed process does): its partitions move only
     * when its session times out, which is what the bound "session timeout + two intervals" is about.
     */
    @Test
    @Timeout(60)
    void targetsMoveToTheSurvivorWithinTheSessionTimeoutWhenOneVanishes(TestKafka kafka) throws Exception {
        splitAndHandOver(kafka, true);
    }

    private void splitAndHandOver(TestKafka kafka, boolean vanish) throws Exception {
        Topics topics = new Topics("handover-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), Topics.DEFAULT_PARTITIONS, true);
        kafka.createTopic(topics.probeResults(), Topics.DEFAULT_PARTITIONS, false);
        kafka.createTopic(topics.rejected(), 1, false);
        String region = "it-" + UUID.randomUUID().toString().substring(0, 8);

        try (TargetFarm farm = TargetFarm.tcp(4);
             TopicRecorder<ProbeResult> collector = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer())) {
            Set<String> all = publishTargets(kafka, topics, farm);

            Map<String, String> settingsOfA = settings(kafka, topics, region, "A");
            if (vanish) {
                // the classic consumer then closes without a LeaveGroup: the group learns only from the session timeout
                settingsOfA.put("kafka.internal.leave.group.on.close", "false");
            }
            ProberWorker a = ProberWorker.start(ProberConfig.from(settingsOfA));
            ProberWorker b = null;
            try {
                b = ProberWorker.start(config(kafka, topics, region, "B"));
                ProberWorker first = a;
                ProberWorker second = b;

                // 1. the targets split: both own some, none is owned twice, together they own all
                Await.until(Duration.ofSeconds(30), () -> first.ready() && second.ready()
                                && !first.probedTargets().isEmpty() && !second.probedTargets().isEmpty()
                                && union(first, second).equals(all) && disjoint(first, second),
                        () -> "A owns " + first.probedTargets().size() + ", B owns " + second.probedTargets().size());
                assertReady(a);
                long splitAt = System.currentTimeMillis();
                Set<String> ownedByA = a.probedTargets();
                Await.until(Duration.ofSeconds(15), () -> everyTargetHasResultsAfter(collector, all, splitAt, 2),
                        () -> "targets without 2 results since the split: " + missing(collector, all, splitAt, 2));
                Map<String, Set<String>> probersSinceSplit = probersByTarget(collector.values(r -> r.getStartedAtMs() > splitAt));
                assertThat(probersSinceSplit).hasSize(TARGETS)
                        .allSatisfy((id, probers) -> assertThat(probers).as(id).hasSize(1));
                assertThat(probersSinceSplit.values().stream().flatMap(Set::stream).collect(Collectors.toSet()))
                        .containsExactlyInAnyOrder("A", "B");
                List<ProbeResult> sinceSplit = collector.values(r -> r.getStartedAtMs() > splitAt);
                assertThat(sinceSplit).allSatisfy(r -> assertThat(r.getRegion()).isEqualTo(region));
                // the listeners answer; a rare timeout on a loaded build machine is not what this test is about
                assertThat(sinceSplit.stream().filter(r -> r.getOutcome() == ProbeOutcome.SUCCESS).count())
                        .isGreaterThanOrEqualTo(sinceSplit.size() * 95L / 100);

                printDistribution("scheduling lag", collector.values(r -> r.getStartedAtMs() > splitAt).stream()
                        .mapToLong(ProbeResult::getSchedulingLagMicros).sorted().toArray());
                printDistribution("TCP connect latency", collector.values(r -> r.getStartedAtMs() > splitAt).stream()
                        .mapToLong(ProbeResult::getLatencyMicros).sorted().toArray());

                // 2. A stops: B probes everything within session timeout + two intervals
                long stopAt = System.currentTimeMillis();
                a.close();
                long stoppedAt = System.currentTimeMillis();
                long bound = stopAt + SESSION_TIMEOUT_MS + 2L * INTERVAL_MS;
                Await.until(Duration.ofMillis(bound - System.currentTimeMillis() + 5_000),
                        () -> firstResultOfBAfter(collector, ownedByA, stopAt).size() == ownedByA.size(),
                        () -> "A's targets not yet probed by B: " + (ownedByA.size()
                                - firstResultOfBAfter(collector, ownedByA, stopAt).size()));
                Map<String, Long> takeover = firstResultOfBAfter(collector, ownedByA, stopAt);
                assertThat(takeover.values()).allSatisfy(startedAt -> assertThat(startedAt).isLessThanOrEqualTo(bound));
                assertThat(b.probedTargets()).isEqualTo(all);

                // 3. after hand-over only B probes, and no target's history interleaves two probers
                long windowStart = System.currentTimeMillis();
                Await.until(Duration.ofSeconds(10), () -> everyTargetHasResultsAfter(collector, all, windowStart, 2),
                        () -> "targets without 2 results after hand-over: " + missing(collector, all, windowStart, 2));
                assertThat(collector.values(r -> r.getStartedAtMs() > stoppedAt))
                        .allSatisfy(r -> assertThat(r.getProberId()).isEqualTo("B"));
                assertNoInterleaving(collector.values());
                System.out.printf("hand-over (%s): A stopped in %d ms, last of A's %d targets taken over %d ms after "
                                + "the stop (bound %d ms)%n", vanish ? "vanished" : "left the group", stoppedAt - stopAt, ownedByA.size(),
                        takeover.values().stream().mapToLong(t -> t - stopAt).max().orElse(0),
                        SESSION_TIMEOUT_MS + 2L * INTERVAL_MS);
            } finally {
                a.close();
                if (b != null) {
                    b.close();
                }
            }
        }
    }

    private static void printDistribution(String what, long[] sortedMicros) {
        System.out.printf("%s over %d probes: p50 %d us, p99 %d us, max %d us%n", what, sortedMicros.length,
                sortedMicros[sortedMicros.length / 2], sortedMicros[(int) (sortedMicros.length * 0.99)],
                sortedMicros[sortedMicros.length - 1]);
    }

    static Map<String, String> settings(TestKafka kafka, Topics topics, String region, String id) {
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", kafka.bootstrapServers());
        settings.put("schema.registry.url", kafka.schemaRegistryUrl());
        settings.put("region", region);
        settings.put("prober.id", id);
        settings.put("topic.prefix", topics.prefix());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        settings.put("event.loop.threads", "1");
        settings.put("allow.list", "127.0.0.0/8"); // the targets are loopback listeners: denied by default
        settings.put("kafka.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS));
        settings.put("kafka.heartbeat.interval.ms", "200");   // the survivor hears of a rebalance soon
        // dynamic members, which leave the group on close and on shedding: this test and ProberSheddingIT are about
        // leaving and vanishing; a static member's restart is ProberCrashRecoveryIT's
        settings.put("group.instance.id", "");
        return settings;
    }

    private static ProberConfig config(TestKafka kafka, Topics topics, String region, String id) {
        return ProberConfig.from(settings(kafka, topics, region, id));
    }

    private static Set<String> publishTargets(TestKafka kafka, Topics topics, TargetFarm farm)
            throws Exception {
        Set<String> ids = new HashSet<>();
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
        try (KafkaProducer<String, TargetDefinition> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), serde.serializer())) {
            for (int i = 0; i < TARGETS; i++) {
                InetSocketAddress to = farm.targets().get(i % farm.targets().size()).socketAddress();
                String id = String.format("tcp-%03d", i);
                TargetSpec spec = TargetSpec.of(id, "pool-" + (i % 10), to.getAddress().getHostAddress(), to.getPort(),
                        Protocol.TCP).withTiming(INTERVAL_MS, 900);
                producer.send(new ProducerRecord<>(topics.targets(), id, TargetSpecs.toAvro(spec))).get();
                ids.add(id);
            }
        }
        return ids;
    }

    private static Set<String> union(ProberWorker a, ProberWorker b) {
        Set<String> u = new HashSet<>(a.probedTargets());
        u.addAll(b.probedTargets());
        return u;
    }

    private static boolean disjoint(ProberWorker a, ProberWorker b) {
        Set<String> i = new HashSet<>(a.probedTargets());
        i.retainAll(b.probedTargets());
        return i.isEmpty();
    }

    private static void assertReady(ProberWorker worker) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + worker.opsPort());
        assertThat(http.send(HttpRequest.newBuilder(base.resolve("/readyz")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        String metrics = http.send(HttpRequest.newBuilder(base.resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("healthmesh_prober_targets_owned " + worker.probedTargets().size() + ".0")
                .contains("healthmesh_prober_probes_in_flight")
                .contains("healthmesh_prober_scheduling_lag_seconds_bucket");
    }

    private static boolean everyTargetHasResultsAfter(TopicRecorder<ProbeResult> c, Set<String> all, long after, int n) {
        return missing(c, all, after, n).isEmpty();
    }

    private static Set<String> missing(TopicRecorder<ProbeResult> c, Set<String> all, long after, int n) {
        Map<String, Long> counts = c.values(r -> r.getStartedAtMs() > after).stream()
                .collect(Collectors.groupingBy(ProbeResult::getTargetId, Collectors.counting()));
        return all.stream().filter(id -> counts.getOrDefault(id, 0L) < n).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static Map<String, Set<String>> probersByTarget(List<ProbeResult> results) {
        Map<String, Set<String>> by = new TreeMap<>();
        results.forEach(r -> by.computeIfAbsent(r.getTargetId(), k -> new HashSet<>()).add(r.getProberId()));
        return by;
    }

    private static Map<String, Long> firstResultOfBAfter(TopicRecorder<ProbeResult> c, Set<String> ids, long after) {
        Map<String, Long> first = new HashMap<>();
        for (ProbeResult r : c.values(r -> "B".equals(r.getProberId()) && r.getStartedAtMs() >= after
                && ids.contains(r.getTargetId()))) {
            first.merge(r.getTargetId(), r.getStartedAtMs(), Math::min);
        }
        return first;
    }

    /** Per target, results in start order form one run per prober at most: owners never alternate. */
    private static void assertNoInterleaving(List<ProbeResult> results) {
        Map<String, List<ProbeResult>> byTarget = results.stream()
                .collect(Collectors.groupingBy(ProbeResult::getTargetId));
        byTarget.forEach((id, list) -> {
            List<ProbeResult> sorted = new ArrayList<>(list);
            sorted.sort((x, y) -> Long.compare(x.getStartedAtMs(), y.getStartedAtMs()));
            List<String> runs = new ArrayList<>();
            for (ProbeResult r : sorted) {
                if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(r.getProberId())) {
                    runs.add(r.getProberId());
                }
            }
            assertThat(runs).as("owners of %s in start order", id).doesNotHaveDuplicates();
        });
    }
}
