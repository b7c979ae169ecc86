package io.healthmesh.status;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status role on the real broker: not ready while its topics are missing, then ready; it shows what the topics
 * hold (a group event written here, as an aggregator would) on the page's snapshot and in its gauges; the page
 * takes {@code http.token}, the ops endpoints their own listener with {@code ops.port}.
 */
@ExtendWith(KafkaExtension.class)
class StatusWorkerIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String TOKEN = "status-page-token-0123";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    @Timeout(120)
    void theRoleShowsTheTopicsOnItsPageBehindItsTokenWithOpsOnTheirOwnListener(TestKafka kafka) throws Exception {
        Topics topics = new Topics(kafka.uniqueTopic("status-role") + ".");
        Map<String, String> settings = new HashMap<>();
        settings.put("bootstrap.servers", kafka.bootstrapServers());
        settings.put("schema.registry.url", kafka.schemaRegistryUrl());
        settings.put("topic.prefix", topics.prefix());
        settings.put("http.host", "127.0.0.1");
        settings.put("http.port", "0");
        settings.put("ops.port", "0");
        settings.put("http.token", TOKEN);
        settings.put("status.history.size", "5");
        try (StatusWorker worker = StatusWorker.start(StatusConfig.from(settings));
             AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, kafka.serdeConfig())) {
            assertThat(worker.opsPort()).isNotEqualTo(worker.httpPort());
            assertThat(get(worker.opsPort(), "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(worker.opsPort(), "/readyz").statusCode()).as("no topics yet").isEqualTo(503);

            kafka.createTopic(topics.healthState(), 1, true);
            kafka.createTopic(topics.groupState(), 1, true);
            kafka.createTopic(topics.targets(), 1, true);
            kafka.createTopic(topics.probeResults(), 1, false);
            Await.until(PATIENCE, () -> get(worker.opsPort(), "/readyz").statusCode() == 200,
                    () -> "/readyz 200 once the topics exist");

            try (KafkaProducer<String, GroupHealth> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                    serde.serializer())) {
                producer.send(new ProducerRecord<>(topics.groupState(), "web", GroupHealth.newBuilder()
                        .setGroupId("web").setFailOpen(true).setMembers(2).setHealthy(0).setUnhealthy(2)
                        .setDetecting(0).setDisabled(0).setRoutable(java.util.List.of()).setRoutableTruncated(false)
                        .setUpdatedAtMs(System.currentTimeMillis()).build())).get();
            }
            Await.until(PATIENCE, () -> get(worker.httpPort(), "/status/snapshot?token=" + TOKEN).body()
                    .contains("\"web\""), () -> "group web on the page's snapshot");

            assertThat(get(worker.httpPort(), "/status/snapshot").statusCode()).as("without the token").isEqualTo(401);
            HttpResponse<String> page = get(worker.httpPort(), "/status/?token=" + TOKEN);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<html");
            assertThat(get(worker.httpPort(), "/metrics").statusCode()).as("ops are on their own port").isEqualTo(404);
            assertThat(get(worker.opsPort(), "/metrics").body()).contains("healthmesh_group_fail_open{group=\"web\"} 1");
        }
    }

    private HttpResponse<String> get(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
