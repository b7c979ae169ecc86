package io.healthmesh.aggregator;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code commit.on.change} on the real broker: with a commit interval of a minute, a new target's first state event
 * reaches a {@code read_committed} consumer within seconds, because the target processor asks Kafka Streams to commit
 * as soon as it writes it. Without the early commit nothing would be visible before the first interval has passed (a
 * minute after the stream thread started), so the wait below fails (checked with the setting off).
 */
@ExtendWith(KafkaExtension.class)
class EarlyCommitIT {

    /** Far below the commit interval: an event seen within it was committed early. */
    private static final Duration SOON = Duration.ofSeconds(20);

    @TempDir
    Path stateDir;

    @Test
    void aNewTargetsFirstEventIsCommittedLongBeforeTheCommitInterval(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "early-" + run + ".";
        Topics topics = new Topics(prefix);
        Map<String, String> settings = AggregatorWorkerIT.settings(kafka, "agg-" + run, prefix, stateDir);
        settings.put("commit.interval.ms", "60000");
        // a transaction may stay open for the whole interval
        settings.put("kafka.producer.transaction.timeout.ms", "180000");
        settings.put("status.page.enabled", "false");
        settings.put("commit.on.change", "true");
        TargetSpec spec = TargetSpec.of("api-1", "api", "10.1.0.1", 8080, Protocol.HTTP);
        try (AggregatorWorker worker = AggregatorWorker.start(AggregatorConfig.from(settings));
             BrokerRecords broker = new BrokerRecords(kafka, topics)) {
            AggregatorWorkerIT.awaitRunning(worker);
            AvroSerde<TargetHealth> health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());

            long t = System.currentTimeMillis();
            broker.define(TargetSpecs.toAvro(spec), t);
            broker.flush();
            long sent = System.nanoTime();
            List<ConsumerRecord<String, TargetHealth>> events = broker.readUntil(topics.healthState(),
                    health.deserializer(), read -> has(read, HealthStatus.DETECTING), SOON);
            Duration detecting = Duration.ofNanos(System.nanoTime() - sent);
            assertThat(events).extracting(ConsumerRecord::key).containsExactly("api-1");

            HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + worker.httpPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body()).containsPattern("healthmesh_aggregator_early_commits_total [1-9]");
            assertThat(detecting).isLessThan(SOON);
            health.close();
        }
    }

    private static boolean has(List<? extends ConsumerRecord<String, TargetHealth>> read, HealthStatus status) {
        return read.stream().anyMatch(r -> r.value() != null && r.value().getStatus() == status);
    }
}
