package io.healthmesh.prober;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.endpoints.AnnouncedEndpoint;
import io.healthmesh.contract.endpoints.EndpointAnnouncer;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second worker's listener, on loopback (which this prober allows, as the demo's does, so nothing but the
 * announcement can deny it): reachable before it is announced, {@code BLOCKED_BY_POLICY} once its worker announces it
 * on the endpoints topic, reachable again after the worker's tombstone. A malformed record on the topic goes to the
 * rejected topic and does not stop the prober from reading the announcement after it.
 */
@ExtendWith(KafkaExtension.class)
class EndpointAnnouncementIT {

    @Test
    @Timeout(90)
    void anAnnouncedListenerIsBlockedUntilItsWorkerWithdrawsIt(TestKafka kafka) throws Exception {
        Topics topics = new Topics("announce-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            TopicSetup.ensure(admin, topics, 1, TopicReplication.singleCopy());
        }
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             TopicRecorder<byte[]> rejected = new TopicRecorder<>(kafka.bootstrapServers(), topics.rejected(),
                     new ByteArrayDeserializer());
             ProberWorker prober = ProberWorker.start(ProberConfig.from(
                     ProberHandoverIT.settings(kafka, topics, "announce", "announce-1")));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer());
             AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            Thread acceptor = acceptForever(listener);
            int port = listener.getLocalPort();
            TargetSpec target = TargetSpec.of("other-workers-listener", "g", "127.0.0.1", port, Protocol.TCP)
                    .withTiming(300, 200);
            producer.send(new ProducerRecord<>(topics.targets(), bytes(target.id()),
                    serde.serializer().serialize(topics.targets(), TargetSpecs.toAvro(target)))).get();
            awaitLatest(results, ProbeOutcome.SUCCESS, "before any announcement the listener is reachable");

            producer.send(new ProducerRecord<>(topics.endpoints(), bytes("bad-worker"), bytes("not an announcement")))
                    .get();
            Properties client = new Properties();
            client.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            List<AnnouncedEndpoint> bound = List.of(new AnnouncedEndpoint("ops", "127.0.0.1", port));
            EndpointAnnouncer announcer = EndpointAnnouncer.start(client, List.of(topics.endpoints()),
                    "status@it:" + port, "status", bound);
            try {
                ProbeResult blocked = awaitLatest(results, ProbeOutcome.BLOCKED_BY_POLICY, "once announced");
                assertThat(blocked.getDetail())
                        .isEqualTo("127.0.0.1 port " + port + " is an endpoint of this cluster (announced by a worker)");
                Await.until(Duration.ofSeconds(20), () -> rejected.first("bad-worker", v -> true).isPresent(),
                        () -> "the malformed record on the rejected topic: " + rejected.all());
            } finally {
                announcer.close(); // a clean stop: the tombstone
            }
            assertThat(announcer.written()).as("the announcement and its tombstone").isGreaterThanOrEqualTo(2);
            awaitLatest(results, ProbeOutcome.SUCCESS, "after the tombstone the listener is reachable again");
            acceptor.interrupt();
        }
    }

    /** Waits until the newest result has {@code outcome}, and returns it. */
    private static ProbeResult awaitLatest(TopicRecorder<ProbeResult> results, ProbeOutcome outcome, String when) {
        return Await.value(Duration.ofSeconds(30), () -> {
            List<ProbeResult> all = results.values();
            return all.isEmpty() || all.get(all.size() - 1).getOutcome() != outcome
                    ? java.util.Optional.empty() : java.util.Optional.of(all.get(all.size() - 1));
        }, () -> when + ": the latest result is " + outcome + "; results: " + results.values().stream()
                .map(r -> r.getOutcome() + " " + r.getDetail()).toList());
    }

    private static Thread acceptForever(ServerSocket listener) {
        Thread thread = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    s.setSoLinger(true, 0);
                } catch (IOException e) {
                    return;
                }
            }
        }, "announce-it-acceptor");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
