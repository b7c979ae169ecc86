package io.healthmesh.notifier;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.TopicSetup;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A notifier started before the targets topic exists waits for it (not ready, saying so in its metrics) instead
 * of giving up, then learns the labels and delivers with them once the topic is created.
 */
@ExtendWith(KafkaExtension.class)
class TargetsTopicLateIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static double metric(NotifierWorker w, String name) {
        return w.registry().scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals(name))
                .flatMap(s -> s.getDataPoints().stream())
                .mapToDouble(d -> d instanceof CounterDataPointSnapshot c ? c.getValue()
                        : ((GaugeDataPointSnapshot) d).getValue())
                .sum();
    }

    private static boolean exists(Admin admin, String topic) {
        try {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic);
        } catch (Exception e) {
            throw new IllegalStateException("cannot list topics", e);
        }
    }

    @Test
    void aNotifierStartedBeforeTheTargetsTopicBecomesReadyAndUsesTheLabelsOnceItExists(TestKafka kafka)
            throws Exception {
        try (StateTopics state = new StateTopics(kafka, 2);
             TestReceiver receiver = TestReceiver.start(0);
             Admin admin = kafka.admin()) {
            String targets = state.topics.targets();
            admin.deleteTopics(List.of(targets)).all().get(30, TimeUnit.SECONDS);
            Await.until(PATIENCE, () -> !exists(admin, targets), () -> targets + " still listed");
            String routes = """
                    routes:
                      - name: payments
                        type: webhook
                        url: '%s'
                        filter: {labels: {team: payments}, failOpen: false}
                    """.formatted(receiver.url("/payments"));
            try (NotifierWorker notifier = NotifierWorker.start(NotifierConfig.from(
                    NotifierSettings.of(kafka, state, "late-targets", dir, routes)))) {
                Await.until(PATIENCE, () -> metric(notifier, "healthmesh_notifier_targets_waiting") == 1
                        && metric(notifier, "healthmesh_notifier_targets_read_failures") >= 1,
                        () -> "the targets reader does not say it waits");
                assertThat(notifier.ready()).as("ready without the targets topic").isFalse();

                TopicSetup.ensure(admin, state.topics, 2, TopicReplication.singleCopy());
                state.define("pay-1", "api", Map.of("team", "payments"));
                state.define("api-1", "api", Map.of("team", "checkout"));
                Await.until(PATIENCE, notifier::ready, () -> "not ready after the targets topic was created");
                assertThat(metric(notifier, "healthmesh_notifier_targets_waiting")).isZero();

                long t0 = System.currentTimeMillis();
                state.state("api-1", "api", HealthStatus.UNHEALTHY, t0);
                state.state("pay-1", "api", HealthStatus.UNHEALTHY, t0);
                Await.until(PATIENCE, () -> receiver.accepted("/payments").size() == 1,
                        () -> receiver.accepted().toString());
                Await.holdsFor(Duration.ofSeconds(1), () -> receiver.accepted().size() == 1,
                        () -> receiver.accepted().toString());
                assertThat(receiver.accepted("/payments").get(0).alertId()).isEqualTo("pay-1");
            }
        }
    }
}
