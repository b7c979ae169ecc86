package io.healthmesh.pipeline;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.EmbeddedKafkaCluster;
import io.healthmesh.ops.BrokerLossTimeouts;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hard broker loss under a flipping target, without containers: a real prober and aggregator on an in-process
 * cluster of three KRaft nodes (replication factor 3, {@code min.insync.replicas} 2, started with
 * {@code controlled.shutdown.enable=false} so that a stopped node hands nothing over, as after a SIGKILL; each
 * behind a relay, so that a lost node stops answering its clients as a lost host does). Once the target is HEALTHY,
 * the node leading the {@code health-state} partition of its events is lost, killed (its connections close, new ones
 * are never answered) or cut off the network (its connections stay open and silent), and, at once, the backend stops
 * answering. Measured: the time from that stop to the UNHEALTHY event read by a {@code read_committed}
 * consumer, which must stay within {@link #DETECTION_BOUND}, and the records written across the loss, which must
 * be the flip's two changes, once each. While the event is late, the Kafka client threads of this JVM are
 * logged (what each one waits on) every {@link #DUMP_EVERY}.
 *
 * <p>Opt-in (about two minutes for both faults, more under load): {@code -D}{@value #OPT_IN}{@code =true}; add
 * {@code -D}{@value #KAFKA_DEFAULTS}{@code =true} to measure the same with Kafka's client timeouts.
 */
@ExtendWith(KafkaExtension.class)
class BrokerLossIT {

    static final String OPT_IN = "healthmesh.it.broker.loss";
    /** {@code true} runs the roles with Kafka's own client timeouts instead of {@link BrokerLossTimeouts}'. */
    static final String KAFKA_DEFAULTS = "healthmesh.it.broker.loss.kafka.defaults";
    private static final String KAFKA_REQUEST_TIMEOUT_MS = "30000";
    private static final String KAFKA_API_TIMEOUT_MS = "60000";
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLossIT.class);
    private static final int INTERVAL_MS = 1_000;
    private static final int TIMEOUT_MS = 500;
    private static final int THRESHOLD = 2;
    /**
     * Detection window (interval + 2 s), the cluster's fencing of the lost node (broker session timeout, 9 s), then
     * requests given up after {@link BrokerLossTimeouts#REQUEST_TIMEOUT_MS} and retried, and at worst the
     * aggregator's transaction aborted by its new coordinator and the rebalance that follows: 11-53 s measured on a
     * loaded two-core machine, never within 90 s with Kafka's client timeouts.
     */
    static final Duration DETECTION_BOUND = Duration.ofSeconds(60);
    /** How long the test waits for the event at all, to measure a stall beyond the bound. */
    private static final Duration PATIENCE = Duration.ofSeconds(75);
    private static final Duration DUMP_EVERY = Duration.ofSeconds(15);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(180)
    void aKilledLeaderOfHealthStateCostsSecondsNotMinutes(TestKafka registry) throws Exception {
        measureDetection(registry, "killed", EmbeddedKafkaCluster::halt);
    }

    @Test
    @Timeout(180)
    void aLeaderOfHealthStateCutOffTheNetworkCostsSecondsNotMinutes(TestKafka registry) throws Exception {
        measureDetection(registry, "cut off", EmbeddedKafkaCluster::cutOff);
    }

    /** How a node is lost. */
    private interface Fault {
        void apply(EmbeddedKafkaCluster cluster, int nodeId);
    }

    private void measureDetection(TestKafka registry, String how, Fault fault) throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean(OPT_IN), "broker loss runs with -D" + OPT_IN + "=true");
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.startBehindRelays(3,
                Map.of("controlled.shutdown.enable", "false"));
             LoopbackHttpBackend backend = LoopbackHttpBackend.start("127.0.0.1");
             Pipeline pipeline = Pipeline.start(cluster.bootstrapServers(), registry.schemaRegistryUrl(), stateDir,
                     aggregatorSettings())) {
            pipeline.startProber("a", List.of(), proberSettings());
            TargetSpec web = TargetSpec.of("web-1", "web", backend.host(), backend.port(), Protocol.HTTP)
                    .withTiming(INTERVAL_MS, TIMEOUT_MS)
                    .withThresholds(THRESHOLD, THRESHOLD);
            pipeline.define(web);
            Received<TargetHealth> healthy = awaitStatus(pipeline, HealthStatus.HEALTHY, 0L, Pipeline.STARTUP);

            String healthState = pipeline.aggregatorConfig().topics().healthState();
            int leader = leaderOf(cluster, healthState, healthy.partition());
            LOG.info("node {} ({}), leader of {}-{}", leader, how, healthState, healthy.partition());
            fault.apply(cluster, leader);
            long hungAt = backend.hang();
            long stoppedAt = Math.max(hungAt, backend.lastAnsweredAtMs());

            ScheduledExecutorService dumps = Executors.newSingleThreadScheduledExecutor();
            Received<TargetHealth> down;
            try {
                dumps.scheduleAtFixedRate(() -> LOG.info("UNHEALTHY not received {} ms after the stop; client "
                                + "threads:\n{}", System.currentTimeMillis() - stoppedAt, ClientThreads.dump()),
                        DUMP_EVERY.toMillis(), DUMP_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                down = awaitStatus(pipeline, HealthStatus.UNHEALTHY, hungAt, PATIENCE);
            } finally {
                dumps.shutdownNow();
            }
            long detection = down.receivedAtMs() - stoppedAt;
            LOG.info("measured: node {} {}, UNHEALTHY received {} ms after the backend stopped (bound {} ms)",
                    leader, how, detection, DETECTION_BOUND.toMillis());

            long resumedAt = backend.resume();
            Received<TargetHealth> up = awaitStatus(pipeline, HealthStatus.HEALTHY, resumedAt, PATIENCE);
            LOG.info("measured: HEALTHY received {} ms after the backend answered again", up.receivedAtMs() - resumedAt);

            assertThat(down.value().getPreviousStatus()).isEqualTo(HealthStatus.HEALTHY);
            // exactly-once across the loss: the records written after the HEALTHY one are the flip, once each. The
            // recorder itself may receive a record twice (it re-reads after losing the leader): one per offset.
            List<Received<TargetHealth>> after = pipeline.health().of("web-1").stream()
                    .filter(r -> r.partition() == healthy.partition() && r.offset() > healthy.offset()).toList();
            Map<Long, HealthStatus> written = new TreeMap<>();
            after.forEach(r -> written.put(r.offset(), r.value() == null ? null : r.value().getStatus()));
            LOG.info("web-1's records after offset {}: {} received, {} offsets {}", healthy.offset(), after.size(),
                    written.size(), written);
            assertThat(List.copyOf(written.values())).as("web-1's records written from the loss on, by offset")
                    .containsExactly(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY);
            assertThat(detection).as("ms from the backend's stop to UNHEALTHY received, the leader lost")
                    .isLessThanOrEqualTo(DETECTION_BOUND.toMillis());
        }
    }

    /** The aggregator's settings: replicated, with Kafka's client timeouts when {@value #KAFKA_DEFAULTS} asks. */
    private static Map<String, String> aggregatorSettings() {
        Map<String, String> settings = new HashMap<>(Map.of("replication.factor", "3"));
        if (Boolean.getBoolean(KAFKA_DEFAULTS)) {
            settings.put("kafka." + BrokerLossTimeouts.REQUEST_TIMEOUT, KAFKA_REQUEST_TIMEOUT_MS);
            settings.put("kafka." + BrokerLossTimeouts.STREAMS_ADMIN_API_TIMEOUT, KAFKA_API_TIMEOUT_MS);
        }
        return settings;
    }

    /** The prober's extra settings: none, or Kafka's request timeout when {@value #KAFKA_DEFAULTS} asks. */
    private static Map<String, String> proberSettings() {
        return Boolean.getBoolean(KAFKA_DEFAULTS)
                ? Map.of("kafka." + BrokerLossTimeouts.REQUEST_TIMEOUT, KAFKA_REQUEST_TIMEOUT_MS) : Map.of();
    }

    private static int leaderOf(EmbeddedKafkaCluster cluster, String topic, int partition) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(topic);
            assertThat(description.partitions().get(partition).replicas()).as("replicas of " + topic).hasSize(3);
            return description.partitions().get(partition).leader().id();
        }
    }

    private static Received<TargetHealth> awaitStatus(Pipeline pipeline, HealthStatus status, long notBeforeMs,
                                                      Duration patience) {
        return Await.value(patience, () -> pipeline.health().of("web-1").stream()
                        .filter(r -> r.receivedAtMs() >= notBeforeMs && r.value() != null
                                && r.value().getStatus() == status)
                        .findFirst(),
                () -> "web-1 never " + status + " within " + patience + "; events: " + pipeline.health().of("web-1"));
    }
}
