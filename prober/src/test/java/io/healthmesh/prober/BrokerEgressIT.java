package io.healthmesh.prober;

import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.egress.DiscoveredEndpoints;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The cluster's brokers are refused at addresses the bootstrap list does not name: at this host's own
 * non-loopback address (where a broker of this host is reachable whatever it advertises), and at the address the
 * cluster's metadata gives, with no configured endpoint at all; and every port of a broker's host is refused (a
 * listener the metadata does not name, such as a second internal listener), unless {@code deny.broker.hosts} is off.
 */
@ExtendWith(KafkaExtension.class)
class BrokerEgressIT {

    @Test
    @Timeout(90)
    void theBrokerPortOnThisHostsOwnAddressIsBlocked(TestKafka kafka) throws Exception {
        InetAddress own = DiscoveredEndpoints.hostAddresses().stream().filter(a -> a instanceof Inet4Address)
                .findFirst().orElse(null);
        assumeThat(own).as("a non-loopback IPv4 address on this host").isNotNull();
        int brokerPort = Integer.parseInt(kafka.bootstrapServers().split(",")[0].replaceAll(".*:", ""));
        Topics topics = new Topics("broker-egress-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), 1, true);
        kafka.createTopic(topics.probeResults(), 1, false);
        kafka.createTopic(topics.rejected(), 1, false);
        TargetSpec target = TargetSpec.of("broker-via-own-address", "g", own.getHostAddress(), brokerPort, Protocol.TCP)
                .withTiming(300, 200);
        Map<String, String> settings = ProberHandoverIT.settings(kafka, topics, "egress", "egress-1");
        try (TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             ProberWorker worker = ProberWorker.start(ProberConfig.from(settings));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer());
             AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            producer.send(new ProducerRecord<>(topics.targets(), target.id().getBytes(StandardCharsets.UTF_8),
                    serde.serializer().serialize(topics.targets(), TargetSpecs.toAvro(target)))).get();
            Await.until(Duration.ofSeconds(30), () -> results.values().size() >= 3, () -> "results: " + results.values());
            assertThat(results.values()).allSatisfy(r -> {
                assertThat(r.getOutcome()).as(r.getDetail()).isEqualTo(ProbeOutcome.BLOCKED_BY_POLICY);
                assertThat(r.getDetail()).isEqualTo(own.getHostAddress() + " is an address of this prober's host");
            });
        }
    }

    @Test
    @Timeout(60)
    void aBrokerTheMetadataNamesIsBlockedWithoutAnyConfiguredEndpoint(TestKafka kafka) throws Exception {
        String advertised = kafka.bootstrapServers().split(",")[0];
        int port = Integer.parseInt(advertised.replaceAll(".*:", ""));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                     .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null)) {
            TargetSpec target = TargetSpec.of("broker", "g", "127.0.0.1", port, Protocol.TCP).withTiming(1000, 800);
            assertThat(engine.probe(target).get(10, TimeUnit.SECONDS).outcome())
                    .as("nothing configured: the broker is reachable").isEqualTo(Outcome.SUCCESS);
            try (ClusterEndpointsRefresher refresher =
                         new ClusterEndpointsRefresher(admin, List.of(), engine.discoveredEndpoints())) {
                refresher.refresh();
            }
            ProbeReport report = engine.probe(target).get(10, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
            assertThat(report.detail()).isEqualTo("127.0.0.1 port " + port + " is an endpoint of this cluster (from its metadata)");
        }
    }

    @Test
    @Timeout(60)
    void everyPortOfTheBrokersHostIsBlockedNotOnlyTheListedOne(TestKafka kafka) throws Exception {
        // loopback left out of the deny list: the broker's host is then reachable but for what the metadata adds
        List<String> deny = ProbeEngineConfig.DEFAULT_DENY_LIST.stream()
                .filter(block -> !ProbeEngineConfig.LOOPBACK.contains(block)).toList();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             ServerSocket unlisted = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withDenyList(deny)
                     .withEventLoopThreads(1), null)) {
            TargetSpec target = TargetSpec.of("next-to-the-broker", "g", "127.0.0.1", unlisted.getLocalPort(),
                    Protocol.TCP).withTiming(1000, 800);
            try (ClusterEndpointsRefresher listedPortsOnly = new ClusterEndpointsRefresher(admin, List.of(),
                    engine.discoveredEndpoints(), new AnnouncedEndpoints(), false, System::currentTimeMillis)) {
                listedPortsOnly.refresh();
            }
            assertThat(engine.probe(target).get(10, TimeUnit.SECONDS).outcome())
                    .as("deny.broker.hosts=false: a port the metadata does not name is reachable")
                    .isEqualTo(Outcome.SUCCESS);
            try (ClusterEndpointsRefresher hostWide = new ClusterEndpointsRefresher(admin, List.of(),
                    engine.discoveredEndpoints(), new AnnouncedEndpoints(), true, System::currentTimeMillis)) {
                hostWide.refresh();
            }
            ProbeReport report = engine.probe(target).get(10, TimeUnit.SECONDS);
            assertThat(report.outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
            assertThat(report.detail()).isEqualTo("127.0.0.1 is the host of a broker or controller of this cluster");
        }
    }

    @Test
    @Timeout(60)
    void theBrokersHostStaysOpenWhereTheAllowListOpenedItsRangeButItsListedPortDoesNot(TestKafka kafka)
            throws Exception {
        int brokerPort = Integer.parseInt(kafka.bootstrapServers().split(",")[0].replaceAll(".*:", ""));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             ServerSocket backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             NettyProbeEngine engine = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                     .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null);
             ClusterEndpointsRefresher refresher = new ClusterEndpointsRefresher(admin, List.of(),
                     engine.discoveredEndpoints(), new AnnouncedEndpoints(), true, System::currentTimeMillis)) {
            refresher.refresh();
            TargetSpec demoBackend = TargetSpec.of("demo-backend", "g", "127.0.0.1", backend.getLocalPort(),
                    Protocol.TCP).withTiming(1000, 800);
            assertThat(engine.probe(demoBackend).get(10, TimeUnit.SECONDS).outcome())
                    .as("allow.list opens loopback, as the demo does").isEqualTo(Outcome.SUCCESS);
            TargetSpec broker = TargetSpec.of("broker", "g", "127.0.0.1", brokerPort, Protocol.TCP).withTiming(1000, 800);
            assertThat(engine.probe(broker).get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        }
    }
}
