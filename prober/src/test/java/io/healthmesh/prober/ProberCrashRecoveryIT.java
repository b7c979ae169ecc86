package io.healthmesh.prober;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.embedded.FreePorts;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.ops.GroupMembership;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.ChildWorker;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.testkit.farm.TargetFarm;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A prober SIGKILLed while probing (no shutdown hook, no LeaveGroup): a restarted prober with the same id probes its
 * targets again without waiting for the dead member's session to expire, however long (it is a static member of the
 * region's group), and a surviving prober of the region takes a dead one's targets within the session timeout plus two
 * intervals. The bounds are those of docs/operations/crash-recovery.md; each test prints the gap it measured.
 */
@ExtendWith(KafkaExtension.class)
class ProberCrashRecoveryIT {

    private static final int TARGETS = 60;
    private static final int INTERVAL_MS = 1_000;
    /**
     * The restart test's session timeout: longer than the test may take, so that a restarted prober that had to wait
     * for its old session to expire (a dynamic member) cannot pass; a static member takes its partitions back at once.
     */
    private static final String LONG_SESSION_TIMEOUT_MS = "180000";
    /** From the kill to every target probed again: the child JVM's start, the join, the read, one interval. */
    private static final Duration RESTART_PATIENCE = Duration.ofSeconds(150);
    /** From the kill to the survivor probing every target of the dead prober: the session timeout, two intervals. */
    private static final long TAKEOVER_BOUND_MS = GroupMembership.SESSION_TIMEOUT_MS + 2L * INTERVAL_MS;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void aKilledProberRestartedWithItsIdProbesItsTargetsAgainAtOnce(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String region = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(4);
             TopicRecorder<ProbeResult> results = recorder(kafka, topics)) {
            Set<String> all = publishTargets(kafka, topics, farm);
            Map<String, String> settings = settings(kafka, topics, region, "A");
            settings.put("kafka.session.timeout.ms", LONG_SESSION_TIMEOUT_MS);
            int port = FreePorts.one();
            settings.put("http.port", Integer.toString(port));
            ChildWorker first = ChildWorker.start(ChildProber.class, settings, dir, "first");
            try {
                long startedAt = System.currentTimeMillis();
                Await.until(Duration.ofSeconds(150), () -> probedSince(results, "A", all, startedAt).equals(all),
                        () -> "targets not probed by the first prober: " + missing(results, "A", all, startedAt)
                                + "\n" + first.output());
            } finally {
                first.kill();
            }
            long killedAt = System.currentTimeMillis();
            try (ChildWorker second = ChildWorker.start(ChildProber.class, settings, dir, "second")) {
                Await.until(RESTART_PATIENCE, () -> answersHealthz(port),
                        () -> "the restarted prober does not answer /healthz\n" + second.output());
                long upAt = System.currentTimeMillis();
                long deadline = killedAt + RESTART_PATIENCE.toMillis();
                Await.until(Duration.ofMillis(Math.max(1, deadline - System.currentTimeMillis())),
                        () -> probedSince(results, "A", all, killedAt).equals(all),
                        () -> "targets not probed again within " + RESTART_PATIENCE + " of the kill (the session "
                                + "timeout is " + LONG_SESSION_TIMEOUT_MS + " ms): " + missing(results, "A", all,
                                killedAt) + "\n" + second.output());
                long allAt = lastFirstProbe(results, "A", all, killedAt);
                System.out.printf("crash recovery: restarted prober probed all %d targets %d ms after the kill "
                                + "(its ops endpoint up after %d ms; session timeout %s ms)%n", all.size(),
                        allAt - killedAt, upAt - killedAt, LONG_SESSION_TIMEOUT_MS);
                assertThat(allAt - killedAt).as("kill to the restarted prober's last target probed again, ms")
                        .isLessThan(Long.parseLong(LONG_SESSION_TIMEOUT_MS));
            }
        }
    }

    private static boolean answersHealthz(int port) {
        try {
            HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/healthz")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    @Timeout(300)
    void aSurvivorProbesAKilledProbersTargetsWithinTheSessionTimeout(TestKafka kafka) throws Exception {
        Topics topics = topics(kafka);
        String region = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        try (TargetFarm farm = TargetFarm.tcp(4);
             TopicRecorder<ProbeResult> results = recorder(kafka, topics)) {
            Set<String> all = publishTargets(kafka, topics, farm);
            ChildWorker doomed = ChildWorker.start(ChildProber.class, settings(kafka, topics, region, "A"), dir, "a");
            try (ChildWorker survivor = ChildWorker.start(ChildProber.class, settings(kafka, topics, region, "B"), dir,
                    "b")) {
                long startedAt = System.currentTimeMillis();
                Await.until(Duration.ofSeconds(150), () -> {
                    Set<String> a = probedSince(results, "A", all, startedAt);
                    Set<String> b = probedSince(results, "B", all, startedAt);
                    Set<String> both = new HashSet<>(a);
                    both.addAll(b);
                    return !a.isEmpty() && !b.isEmpty() && both.equals(all);
                }, () -> "targets not split between A and B yet\n" + doomed.output() + "\n" + survivor.output());
                // what A probes now: the split settled when A has probed for two intervals without B
                long settled = System.currentTimeMillis() + 2L * INTERVAL_MS;
                Await.until(Duration.ofSeconds(30), () -> System.currentTimeMillis() > settled + 2L * INTERVAL_MS
                                && !probedSince(results, "A", all, settled).isEmpty(),
                        () -> "A probes nothing after the split");
                Set<String> ofA = probedSince(results, "A", all, settled);

                doomed.kill();
                long killedAt = System.currentTimeMillis();
                Await.until(Duration.ofSeconds(60), () -> probedSince(results, "B", ofA, killedAt).equals(ofA),
                        () -> "A's targets not taken over by B: " + missing(results, "B", ofA, killedAt) + "\n"
                                + survivor.output());
                long gap = lastFirstProbe(results, "B", ofA, killedAt) - killedAt;
                System.out.printf("crash recovery: survivor probed all %d targets of the killed prober %d ms after "
                        + "the kill (bound %d ms)%n", ofA.size(), gap, TAKEOVER_BOUND_MS);
                assertThat(gap).as("kill to the survivor's last take-over probe, ms")
                        .isLessThanOrEqualTo(TAKEOVER_BOUND_MS);
            } finally {
                if (doomed.isAlive()) {
                    doomed.kill();
                }
            }
        }
    }

    /** The prober role in a child JVM. */
    public static final class ChildProber implements ChildWorker.Role {
        @Override
        public AutoCloseable start(Map<String, String> settings) {
            return ProberWorker.start(ProberConfig.from(settings));
        }
    }

    private static Map<String, String> settings(TestKafka kafka, Topics topics, String region, String id) {
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", kafka.bootstrapServers());
        settings.put("schema.registry.url", kafka.schemaRegistryUrl());
        settings.put("region", region);
        settings.put("prober.id", id);   // and so the group's static member id
        settings.put("topic.prefix", topics.prefix());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        settings.put("event.loop.threads", "1");
        settings.put("allow.list", "127.0.0.0/8");
        return settings;
    }

    private static Topics topics(TestKafka kafka) {
        Topics topics = new Topics("crash-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), Topics.DEFAULT_PARTITIONS, true);
        kafka.createTopic(topics.probeResults(), Topics.DEFAULT_PARTITIONS, false);
        kafka.createTopic(topics.rejected(), 1, false);
        return topics;
    }

    private static TopicRecorder<ProbeResult> recorder(TestKafka kafka, Topics topics) {
        return new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
    }

    private static Set<String> publishTargets(TestKafka kafka, Topics topics, TargetFarm farm) throws Exception {
        Set<String> ids = new HashSet<>();
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig());
        try (KafkaProducer<String, TargetDefinition> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(), serde.serializer())) {
            for (int i = 0; i < TARGETS; i++) {
                InetSocketAddress to = farm.targets().get(i % farm.targets().size()).socketAddress();
                String id = String.format("crash-%03d", i);
                TargetSpec spec = TargetSpec.of(id, "pool-" + (i % 6), to.getAddress().getHostAddress(), to.getPort(),
                        Protocol.TCP).withTiming(INTERVAL_MS, 900);
                producer.send(new ProducerRecord<>(topics.targets(), id, TargetSpecs.toAvro(spec))).get();
                ids.add(id);
            }
        }
        return ids;
    }

    /** The targets among {@code ids} that {@code prober} probed starting at or after {@code since}. */
    private static Set<String> probedSince(TopicRecorder<ProbeResult> results, String prober, Set<String> ids,
                                           long since) {
        Set<String> probed = new HashSet<>();
        for (ProbeResult r : results.values(r -> prober.equals(r.getProberId().toString())
                && r.getStartedAtMs() >= since)) {
            String id = r.getTargetId().toString();
            if (ids.contains(id)) {
                probed.add(id);
            }
        }
        return probed;
    }

    private static Set<String> missing(TopicRecorder<ProbeResult> results, String prober, Set<String> ids, long since) {
        Set<String> missing = new java.util.TreeSet<>(ids);
        missing.removeAll(probedSince(results, prober, ids, since));
        return missing;
    }

    /** The latest of the targets' first probe start by {@code prober} at or after {@code since}. */
    private static long lastFirstProbe(TopicRecorder<ProbeResult> results, String prober, Set<String> ids, long since) {
        Map<String, Long> first = new HashMap<>();
        for (ProbeResult r : results.values(r -> prober.equals(r.getProberId().toString())
                && r.getStartedAtMs() >= since && ids.contains(r.getTargetId().toString()))) {
            first.merge(r.getTargetId().toString(), r.getStartedAtMs(), Math::min);
        }
        return first.values().stream().mapToLong(Long::longValue).max().orElseThrow();
    }
}
