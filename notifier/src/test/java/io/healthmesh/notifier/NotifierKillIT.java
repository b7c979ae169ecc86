package io.healthmesh.notifier;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.ChildWorker;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.notifier.TestReceiver.Received;
import io.healthmesh.schema.HealthStatus;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A notifier killed (SIGKILL, in a child JVM) while a delivery is in flight: the next notifier of the group sends
 * exactly what the receiver had not acknowledged, and nothing it had.
 */
@ExtendWith(KafkaExtension.class)
class NotifierKillIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int TARGETS = 20;
    private static final int ACKED = 8;

    @TempDir
    Path dir;

    @Test
    void aNotifierKilledMidDeliveryResendsOnlyWhatWasNotAcknowledged(TestKafka kafka) throws Exception {
        try (StateTopics state = new StateTopics(kafka, 3);
             TestReceiver receiver = TestReceiver.start(0)) {
            // a long timeout: the held request is still in flight when the child is killed
            String routes = "routes: [{name: hook, type: webhook, url: '%s', timeout: 60s}]\n"
                    .formatted(receiver.url("/hook"));
            Map<String, String> settings = NotifierSettings.of(kafka, state, "killed", dir, routes);
            receiver.acceptThenHold(ACKED);
            Map<String, RecordMetadata> records = new LinkedHashMap<>();
            Set<String> acked;
            try (ChildWorker child = ChildWorker.start(ChildNotifier.class, settings, dir, "child")) {
                // the child must have been assigned its partitions (it commits their floors) before the events
                Await.until(PATIENCE, () -> !NotifierDeliveryIT.committed(kafka, "killed").isEmpty()
                        || !child.isAlive(), child::output);
                long t0 = System.currentTimeMillis();
                for (int i = 0; i < TARGETS; i++) {
                    String id = "k-" + i;
                    records.put(id, state.state(id, "g", HealthStatus.UNHEALTHY, t0 + i));
                }
                Await.until(PATIENCE, () -> receiver.accepted().size() == ACKED && receiver.held() == 1,
                        () -> receiver.accepted().size() + " accepted, " + receiver.held() + " held; "
                                + child.output());
                acked = receiver.accepted().stream().map(Received::alertId).collect(Collectors.toSet());
                // the commits of the acknowledged records reach the broker: per partition, up to the first record
                // whose notification was not acknowledged
                Map<TopicPartition, Long> firstUnacked = new HashMap<>();
                Map<TopicPartition, Long> afterAcked = new HashMap<>();
                records.forEach((id, m) -> {
                    TopicPartition tp = new TopicPartition(m.topic(), m.partition());
                    if (acked.contains(id)) {
                        afterAcked.merge(tp, m.offset() + 1, Math::max);
                    } else {
                        firstUnacked.merge(tp, m.offset(), Math::min);
                    }
                });
                Map<TopicPartition, Long> expected = new HashMap<>(afterAcked);
                expected.putAll(firstUnacked);
                Await.until(PATIENCE, () -> committedMatch(kafka, expected),
                        () -> "committed " + NotifierDeliveryIT.committed(kafka, "killed") + ", expected " + expected);
                child.kill();
            }
            // the killed member leaves the group when its session expires; the next one then starts alone
            try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
                Await.until(PATIENCE, () -> {
                    var g = NotifierDeliveryIT.describe(admin, "killed");
                    return g == null || g.members().isEmpty();
                }, () -> String.valueOf(NotifierDeliveryIT.describe(admin, "killed")));
            }
            receiver.acceptAll();
            int before = receiver.accepted().size();
            try (NotifierWorker next = NotifierWorker.start(NotifierConfig.from(settings))) {
                Await.until(PATIENCE, next::ready, () -> "not ready");
                NotifierDeliveryIT.awaitCommittedToEnd(kafka, "killed", state);
                List<String> resent = receiver.accepted().subList(before, receiver.accepted().size()).stream()
                        .map(Received::alertId).toList();
                Set<String> notAcked = records.keySet().stream().filter(id -> !acked.contains(id))
                        .collect(Collectors.toSet());
                assertThat(resent).hasSize(TARGETS - ACKED).doesNotHaveDuplicates();
                assertThat(Set.copyOf(resent)).isEqualTo(notAcked);
            }
        }
    }

    private static boolean committedMatch(TestKafka kafka, Map<TopicPartition, Long> expected) {
        Map<TopicPartition, Long> committed = NotifierDeliveryIT.committed(kafka, "killed");
        return expected.entrySet().stream().allMatch(e -> e.getValue().equals(committed.get(e.getKey())));
    }

    /** The notifier role in the child JVM. */
    public static final class ChildNotifier implements ChildWorker.Role {
        @Override
        public AutoCloseable start(Map<String, String> settings) {
            return NotifierWorker.start(NotifierConfig.from(settings));
        }
    }
}
