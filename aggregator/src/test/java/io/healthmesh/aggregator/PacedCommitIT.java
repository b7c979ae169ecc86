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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code commit.paced} on the real broker: the topology's pacer, not Kafka Streams' timer, makes the commits. With a
 * 500 ms interval Kafka Streams' own interval becomes a 5 s backstop, so were the pacer not asking, each new
 * target's first event would wait for a commit up to 5 s away, and eight of them in a row would not all be seen
 * within 2.5 s (about 1 chance in 200 that they would: each wait is spread over the backstop). Paced, each waits at
 * most the interval and one commit, plus the test consumer's start.
 */
@ExtendWith(KafkaExtension.class)
class PacedCommitIT {

    private static final int TARGETS = 8;
    private static final Duration PACED_BOUND = Duration.ofMillis(2_500);

    @TempDir
    Path stateDir;

    @Test
    void commitsComeFromThePacerOneIntervalApart(TestKafka kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "paced-" + run + ".";
        Topics topics = new Topics(prefix);
        Map<String, String> settings = AggregatorWorkerIT.settings(kafka, "agg-" + run, prefix, stateDir);
        settings.put("commit.interval.ms", "500");
        settings.put("commit.paced", "true");
        settings.put("status.page.enabled", "false");
        AggregatorConfig config = AggregatorConfig.from(settings);
        assertThat(config.streamsProperties("h:1")).containsEntry("commit.interval.ms", "5000");
        try (AggregatorWorker worker = AggregatorWorker.start(config);
             BrokerRecords broker = new BrokerRecords(kafka, topics)) {
            AggregatorWorkerIT.awaitRunning(worker);
            AvroSerde<TargetHealth> health = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig());
            List<Duration> waits = new ArrayList<>();
            for (int i = 0; i < TARGETS; i++) {
                String id = "api-" + i;
                broker.define(TargetSpecs.toAvro(TargetSpec.of(id, "api", "10.1.0." + (i + 1), 8080, Protocol.HTTP)),
                        System.currentTimeMillis());
                broker.flush();
                long sent = System.nanoTime();
                broker.readUntil(topics.healthState(), health.deserializer(),
                        read -> has(read, id, HealthStatus.DETECTING), Duration.ofSeconds(30));
                waits.add(Duration.ofNanos(System.nanoTime() - sent));
            }
            health.close();
            assertThat(waits).as("each new target's first event, from its definition to a read_committed consumer")
                    .allSatisfy(wait -> assertThat(wait).isLessThan(PACED_BOUND));
        }
    }

    private static boolean has(List<? extends ConsumerRecord<String, TargetHealth>> read, String id,
                               HealthStatus status) {
        return read.stream().anyMatch(r -> id.equals(r.key()) && r.value() != null && r.value().getStatus() == status);
    }
}
