package io.healthmesh.prober;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
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
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server-side request forgery against the cluster itself: a TCP target whose {@code send} payload speaks HTTP to
 * the cluster's own schema registry (a DELETE of a subject) is refused with {@code BLOCKED_BY_POLICY}, even on a
 * prober whose allow list opens loopback (where the registry listens here), and the subject is still there
 * afterwards.
 */
@ExtendWith(KafkaExtension.class)
class RegistryEgressIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Timeout(90)
    void aPayloadAimedAtTheRegistryIsBlockedAndTheSubjectSurvives(TestKafka kafka) throws Exception {
        Topics topics = new Topics("egress-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        kafka.createTopic(topics.targets(), 1, true);
        kafka.createTopic(topics.probeResults(), 1, false);
        kafka.createTopic(topics.rejected(), 1, false);
        URI registry = URI.create(kafka.schemaRegistryUrl());
        String subject = "egress-victim-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(send("POST", registry.resolve("/subjects/" + subject + "/versions"),
                "{\"schema\": \"\\\"string\\\"\"}").statusCode()).isEqualTo(200);

        String attack = "DELETE /subjects/" + subject + "?permanent=false HTTP/1.1\r\nHost: " + registry.getAuthority()
                + "\r\nConnection: close\r\n\r\n";
        TargetSpec target = TargetSpec.of("registry-delete", "g", registry.getHost(), registry.getPort(), Protocol.TCP)
                .withTiming(300, 200)
                .withTcp(new TcpSpec(attack, "HTTP/1.1 200"));
        Map<String, String> settings = ProberHandoverIT.settings(kafka, topics, "egress", "egress-1");
        assertThat(settings).containsEntry("allow.list", "127.0.0.0/8"); // loopback open: the registry still is not

        try (TopicRecorder<ProbeResult> results = new TopicRecorder<>(kafka.bootstrapServers(), topics.probeResults(),
                     AvroSerde.forValues(ProbeResult.class, kafka.serdeConfig()).deserializer());
             ProberWorker worker = ProberWorker.start(ProberConfig.from(settings));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                     Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer());
             AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, kafka.serdeConfig())) {
            producer.send(new ProducerRecord<>(topics.targets(), target.id().getBytes(StandardCharsets.UTF_8),
                    serde.serializer().serialize(topics.targets(), TargetSpecs.toAvro(target)))).get();

            Await.until(Duration.ofSeconds(30), () -> results.values().size() >= 3,
                    () -> "results: " + results.values());
            assertThat(worker.probedTargets()).containsExactly("registry-delete"); // probed, and refused each time
            List<ProbeResult> seen = results.values();
            assertThat(seen).allSatisfy(r -> {
                assertThat(r.getOutcome()).isEqualTo(ProbeOutcome.BLOCKED_BY_POLICY);
                assertThat(r.getDetail()).contains("is an endpoint of this cluster");
            });
        }
        HttpResponse<String> still = send("GET", registry.resolve("/subjects/" + subject + "/versions"), null);
        assertThat(still.statusCode()).as(still.body()).isEqualTo(200);
        assertThat(still.body()).contains("1");
    }

    private static HttpResponse<String> send(String method, URI uri, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
