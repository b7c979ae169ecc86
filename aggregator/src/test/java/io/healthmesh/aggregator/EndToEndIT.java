package io.healthmesh.aggregator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.healthmesh.core.target.DetectionWindow;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.embedded.KafkaExtension;
import io.healthmesh.embedded.TestKafka;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.schemas.TargetSpecs;
import io.healthmesh.schemas.Topics;
import io.healthmesh.schemas.serde.AvroSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole pipeline on the real broker: two probers (regions {@code eu} and {@code us}, the latter with a deny
 * list covering loopback) probe loopback HTTP paths; the aggregator turns their results into state and group
 * events. Issue 4's end-to-end test and issue 8's two-region test.
 */
@ExtendWith(KafkaExtension.class)
class EndToEndIT {

    private static final Logger LOG = LoggerFactory.getLogger(EndToEndIT.class);
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    /** A loopback HTTP server whose paths answer 200 or stop answering (requests held open, never answered). */
    static final class SwitchableServer implements AutoCloseable {
        private final HttpServer server;
        private final Set<String> silent = ConcurrentHashMap.newKeySet();
        private final ConcurrentLinkedQueue<HttpExchange> held = new ConcurrentLinkedQueue<>();

        SwitchableServer() throws java.io.IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
            server.createContext("/", exchange -> {
                if (silent.contains(exchange.getRequestURI().getPath())) {
                    held.add(exchange); // no answer: the prober times out
                } else {
                    exchange.sendResponseHeaders(200, -1);
                    exchange.close();
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        void silence(String path) {
            silent.add(path);
        }

        void answer(String path) {
            silent.remove(path);
            HttpExchange e;
            while ((e = held.poll()) != null) {
                e.close();
            }
        }

        @Override
        public void close() {
            answer("/");
            server.stop(0);
        }
    }

    private static TargetSpec http(String id, String group, int port, String path, List<String> regions,
                                   QuorumPolicy quorum) {
        return new TargetSpec(id, group, "127.0.0.1", port, Protocol.HTTP, 1_000, 500, 2, 2, true, 10, null,
                new HttpSpec(HttpSpec.DEFAULTS.method(), path, null, List.of("2xx"), false, Map.of(), null, false),
                null, null, regions, quorum, 1);
    }

    private static Map<String, String> prober(TestKafka kafka, Topics topics, String region, String denyList) {
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", topics.prefix());
        s.put("region", region);
        s.put("prober.id", "e2e-" + region);
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        s.put("jitter.fraction", "0");
        s.put("deny.list", denyList);
        return s;
    }

    private static boolean is(TopicCollector.Received<TargetHealth> r, String id, HealthStatus status) {
        return r.key().equals(id) && r.value() != null && r.value().getStatus() == status;
    }

    private static Map<String, HealthStatus> regions(TargetHealth h) {
        return h.getRegions().stream().collect(Collectors.toMap(RegionHealth::getRegion, RegionHealth::getStatus));
    }

    @Test
    @SuppressWarnings("try") // the workers only need to run while the body does
    void realProbersDriveStateGroupFailOpenAndRegionQuorums(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Topics topics = new Topics("e2e-" + run + ".");
        Map<String, String> aggregatorSettings = AggregatorWorkerIT.settings(kafka, "e2e-" + run, topics.prefix(),
                dir.resolve("state"));
        AvroSerde<TargetHealth> healthSerde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
        AvroSerde<GroupHealth> groupSerde = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig());
        AvroSerde<ProbeResult> resultSerde = AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig());
        try (SwitchableServer server = new SwitchableServer();
             AggregatorWorker aggregator = AggregatorWorker.start(AggregatorConfig.from(aggregatorSettings));
             ProberWorker eu = ProberWorker.start(ProberConfig.from(prober(kafka, topics, "eu",
                     "169.254.0.0/16,fd00:ec2::/32")));
             ProberWorker us = ProberWorker.start(ProberConfig.from(prober(kafka, topics, "us", "127.0.0.0/8")));
             TopicCollector<TargetHealth> health = new TopicCollector<>(kafka.bootstrapServers(), topics.healthState(),
                     healthSerde.deserializer());
             TopicCollector<GroupHealth> groups = new TopicCollector<>(kafka.bootstrapServers(), topics.groupState(),
                     groupSerde.deserializer());
             TopicCollector<ProbeResult> results = new TopicCollector<>(kafka.bootstrapServers(),
                     topics.probeResults(), resultSerde.deserializer());
             BrokerRecords broker = new BrokerRecords(kafka, topics)) {
            TargetSpec shopA = http("shop-a", "shop", server.port(), "/a", List.of("eu"), QuorumPolicy.MAJORITY);
            TargetSpec shopB = http("shop-b", "shop", server.port(), "/b", List.of("eu"), QuorumPolicy.MAJORITY);
            TargetSpec any = http("multi-any", "multi", server.port(), "/m", List.of(), QuorumPolicy.ANY);
            TargetSpec all = http("multi-all", "multi", server.port(), "/m", List.of(), QuorumPolicy.ALL);
            for (TargetSpec spec : List.of(shopA, shopB, any, all)) {
                broker.define(TargetSpecs.toAvro(spec), System.currentTimeMillis());
            }
            broker.flush();

            health.await(0, r -> is(r, "shop-a", HealthStatus.HEALTHY), PATIENCE, "shop-a HEALTHY");
            health.await(0, r -> is(r, "shop-b", HealthStatus.HEALTHY), PATIENCE, "shop-b HEALTHY");
            // us may not probe loopback: its region sees the target UNHEALTHY (BLOCKED_BY_POLICY)
            TargetHealth anyView = health.await(0, r -> r.key().equals("multi-any") && r.value() != null
                    && regions(r.value()).equals(Map.of("eu", HealthStatus.HEALTHY, "us", HealthStatus.UNHEALTHY)),
                    PATIENCE, "multi-any with eu HEALTHY and us UNHEALTHY").value();
            assertThat(anyView.getStatus()).as("ANY: one HEALTHY region is enough").isEqualTo(HealthStatus.HEALTHY);
            TargetHealth allView = health.await(0, r -> r.key().equals("multi-all") && r.value() != null
                    && regions(r.value()).equals(Map.of("eu", HealthStatus.HEALTHY, "us", HealthStatus.UNHEALTHY)),
                    PATIENCE, "multi-all with eu HEALTHY and us UNHEALTHY").value();
            assertThat(allView.getStatus()).as("ALL: one UNHEALTHY region is enough").isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(allView.getRegions()).filteredOn(r -> r.getRegion().equals("us")).singleElement()
                    .satisfies(r -> assertThat(r.getLastOutcome()).isEqualTo(ProbeOutcome.BLOCKED_BY_POLICY));

            // shop-a stops answering: UNHEALTHY within the SPEC window (from the first failing probe) + 1 s
            int healthMark = health.size();
            int resultMark = results.size();
            long silencedAt = System.currentTimeMillis();
            server.silence("/a");
            TopicCollector.Received<TargetHealth> down = health.await(healthMark,
                    r -> is(r, "shop-a", HealthStatus.UNHEALTHY), PATIENCE, "shop-a UNHEALTHY");
            long firstFailStart = results.await(resultMark, r -> r.key().equals("shop-a")
                    && r.value().getOutcome() == ProbeOutcome.TIMEOUT && r.value().getStartedAtMs() >= silencedAt,
                    PATIENCE, "first shop-a timeout").value().getStartedAtMs();
            long window = DetectionWindow.of(shopA, Duration.ZERO).toUnhealthy().toMillis();
            LOG.info("shop-a: first failing probe at +{} ms, verdict (sinceMs) at +{} ms, UNHEALTHY event written at +{} ms,"
                    + " seen at +{} ms; window {} ms", firstFailStart - silencedAt, down.value().getSinceMs() - silencedAt,
                    down.record().timestamp() - silencedAt, down.receivedAtMs() - silencedAt, window);
            // the verdict is dated by the failing result that decided it: within the window + 1 s of the first
            // failing probe (prober scheduling lag and timeout precision included)
            assertThat(down.value().getSinceMs() - firstFailStart).isLessThanOrEqualTo(window + 1_000);
            // and a read_committed consumer sees it soon after (commit interval, transaction markers, a loaded
            // 2-core CI machine: measured 0.2-0.9 s here)
            assertThat(down.receivedAtMs() - firstFailStart).isLessThanOrEqualTo(window + 3_000);

            // shop-b too: the group fails open with both routable
            int groupMark = groups.size();
            server.silence("/b");
            GroupHealth open = groups.await(groupMark, r -> r.key().equals("shop") && r.value() != null
                    && r.value().getFailOpen(), PATIENCE, "shop failOpen=true").value();
            assertThat(open.getRoutable()).containsExactly("shop-a", "shop-b");
            assertThat(open.getUnhealthy()).isEqualTo(2);

            // both answer again: HEALTHY, and the group closes
            healthMark = health.size();
            groupMark = groups.size();
            server.answer("/a");
            server.answer("/b");
            health.await(healthMark, r -> is(r, "shop-a", HealthStatus.HEALTHY), PATIENCE, "shop-a HEALTHY again");
            health.await(healthMark, r -> is(r, "shop-b", HealthStatus.HEALTHY), PATIENCE, "shop-b HEALTHY again");
            GroupHealth closed = groups.await(groupMark, r -> r.key().equals("shop") && r.value() != null
                    && !r.value().getFailOpen() && r.value().getRoutable().size() == 2, PATIENCE,
                    "shop closed with both routable").value();
            assertThat(closed.getHealthy()).isEqualTo(2);
        } finally {
            healthSerde.close();
            groupSerde.close();
            resultSerde.close();
        }
    }
}
