package io.healthmesh.aggregator;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cleanly stopped aggregator leaves its group, so the instance started after it (a restart, a rolling deploy)
 * processes at once instead of waiting for the old member's session to time out. Runs with Kafka's default session
 * timeout (45 s), which the other aggregator ITs shorten.
 */
@ExtendWith(KafkaExtension.class)
class AggregatorRestartHandOverIT {

    /** Far below the 45 s session timeout a member that did not leave would hold its partitions for. */
    private static final Duration HAND_OVER_BOUND = Duration.ofSeconds(25);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void aRestartedInstanceRunsWithoutWaitingForTheOldSessionToExpire(TestKafka kafka) {
        String appId = "handover-" + UUID.randomUUID().toString().substring(0, 8);
        String prefix = appId + ".";
        Map<String, String> settings = AggregatorWorkerIT.settings(kafka, appId, prefix, stateDir);
        settings.remove("kafka.session.timeout.ms");
        settings.remove("kafka.heartbeat.interval.ms");

        try (AggregatorWorker first = AggregatorWorker.start(AggregatorConfig.from(settings))) {
            awaitRunning(first, Duration.ofSeconds(90));
        }

        long start = System.nanoTime();
        try (AggregatorWorker second = AggregatorWorker.start(AggregatorConfig.from(settings))) {
            awaitRunning(second, Duration.ofSeconds(90));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).as("time until the restarted instance was RUNNING").isLessThan(HAND_OVER_BOUND);
        }
    }

    private static void awaitRunning(AggregatorWorker worker, Duration patience) {
        Await.until(patience, worker::isRunning, () -> "worker not RUNNING: " + worker.state());
    }
}
