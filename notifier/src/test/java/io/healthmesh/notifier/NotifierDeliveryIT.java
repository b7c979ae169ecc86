package io.healthmesh.notifier;

import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.notifier.TestReceiver.Received;
import io.healthmesh.schema.HealthStatus;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The notifier on the real broker against a real HTTP receiver: firing and resolved, an outage, two replicas. */
@ExtendWith(KafkaExtension.class)
class NotifierDeliveryIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static double metric(NotifierWorker w, String name, String route, String type) {
        return w.registry().scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals(name))
                .flatMap(s -> s.getDataPoints().stream())
                .filter(d -> route.equals(d.getLabels().get("route"))
                        && (type == null || type.equals(d.getLabels().get("type"))
                        || type.equals(d.getLabels().get("reason"))))
                .mapToDouble(d -> d instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot c
                        ? c.getValue()
                        : ((io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot) d).getValue())
                .sum();
    }

    private static void awaitReady(NotifierWorker... workers) {
        Await.until(PATIENCE, () -> List.of(workers).stream().allMatch(NotifierWorker::ready), () -> "not ready");
    }

    @Test
    void aFlipFiresOncePerRouteAndRecoveryResolvesIt(TestKafka kafka) throws Exception {
        try (StateTopics state = new StateTopics(kafka, 3);
             TestReceiver receiver = TestReceiver.start(0)) {
            state.define("api-1", "api", Map.of("team", "checkout"));
            state.define("pay-1", "api", Map.of("team", "payments"));
            String routes = """
                    routes:
                      - {name: hook, type: webhook, url: '%s'}
                      - {name: chat, type: slack, url: '%s'}
                      - name: payments
                        type: webhook
                        url: '%s'
                        filter: {labels: {team: payments}, failOpen: false}
                    """.formatted(receiver.url("/hook"), receiver.url("/slack"), receiver.url("/payments"));
            try (NotifierWorker notifier = NotifierWorker.start(NotifierConfig.from(
                    NotifierSettings.of(kafka, state, "flip", dir, routes)))) {
                awaitReady(notifier);
                long t0 = System.currentTimeMillis();
                state.state("api-1", "api", HealthStatus.HEALTHY, t0 - 60_000);
                state.state("api-1", "api", HealthStatus.UNHEALTHY, t0);
                state.state("pay-1", "api", HealthStatus.UNHEALTHY, t0);
                state.group("api", true, t0);
                Await.until(PATIENCE, () -> receiver.accepted().size() == 3 + 3 + 1, () -> receiver.accepted().toString());

                state.state("api-1", "api", HealthStatus.HEALTHY, t0 + 5_000);
                state.state("pay-1", "api", HealthStatus.HEALTHY, t0 + 5_000);
                state.group("api", false, t0 + 5_000);
                Await.until(PATIENCE, () -> receiver.accepted().size() == 14, () -> receiver.accepted().toString());

                List<Received> hook = receiver.accepted("/hook");
                assertThat(hook).extracting(r -> r.body().path("alert").path("kind").asText() + " " + r.alertId()
                        + " " + r.type()).containsExactlyInAnyOrder(
                        "target api-1 firing", "target pay-1 firing", "group api firing",
                        "target api-1 resolved", "target pay-1 resolved", "group api resolved");
                assertThat(hook).allSatisfy(r -> assertThat(r.idempotencyKey()).isEqualTo(r.body().get("id").asText()));
                Received resolved = hook.stream().filter(r -> r.alertId().equals("api-1") && r.type().equals("resolved"))
                        .findFirst().orElseThrow();
                assertThat(resolved.body().path("alert").path("labels").path("team").asText()).isEqualTo("checkout");
                assertThat(resolved.body().get("endsAt").asText())
                        .isEqualTo(java.time.Instant.ofEpochMilli(t0 + 5_000).toString());
                assertThat(receiver.accepted("/slack")).hasSize(6)
                        .allSatisfy(r -> assertThat(r.body().get("text").asText()).containsAnyOf("FIRING", "RESOLVED"));
                assertThat(receiver.accepted("/payments")).extracting(r -> r.alertId() + " " + r.type())
                        .containsExactly("pay-1 firing", "pay-1 resolved");
                assertThat(metric(notifier, "healthmesh_notifier_sent", "hook", null)).isEqualTo(6);
                assertThat(metric(notifier, "healthmesh_notifier_failed", "hook", null)).isZero();
                // every record's notifications were delivered, so the group committed the ends of the partitions
                awaitCommittedToEnd(kafka, "flip", state);
            }
        }
    }

    @Test
    void whileTheReceiverIsDownNothingIsCommittedAndEveryNotificationArrivesOnceItIsBack(TestKafka kafka)
            throws Exception {
        try (StateTopics state = new StateTopics(kafka, 3);
             TestReceiver receiver = TestReceiver.start(0)) {
            String routes = "routes: [{name: hook, type: webhook, url: '%s'}]\n".formatted(receiver.url("/hook"));
            try (NotifierWorker notifier = NotifierWorker.start(NotifierConfig.from(
                    NotifierSettings.of(kafka, state, "outage", dir, routes)))) {
                awaitReady(notifier);
                receiver.stop();
                long t0 = System.currentTimeMillis();
                Map<TopicPartition, Long> firstOffsets = new HashMap<>();
                for (int i = 0; i < 20; i++) {
                    RecordMetadata m = state.state("t-" + i, "g", HealthStatus.UNHEALTHY, t0 + i);
                    firstOffsets.putIfAbsent(new TopicPartition(m.topic(), m.partition()), m.offset());
                }
                for (int i = 0; i < 20; i++) {
                    state.state("t-" + i, "g", HealthStatus.HEALTHY, t0 + 1_000 + i);
                }
                Await.until(PATIENCE, () -> metric(notifier, "healthmesh_notifier_failed", "hook", "error") >= 5
                        && metric(notifier, "healthmesh_notifier_retrying", "hook", null) == 1
                        && metric(notifier, "healthmesh_notifier_pending", "hook", null) == 40,
                        () -> "failed " + metric(notifier, "healthmesh_notifier_failed", "hook", "error")
                                + ", pending " + metric(notifier, "healthmesh_notifier_pending", "hook", null));
                // ~15 s of outage: delivery retried with backoff, no offset committed past an undelivered record
                long downUntil = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                while (System.nanoTime() < downUntil) {
                    Map<TopicPartition, Long> committed = committed(kafka, "outage");
                    firstOffsets.forEach((tp, first) -> assertThat(committed.getOrDefault(tp, 0L))
                            .as("committed offset of %s during the outage", tp).isLessThanOrEqualTo(first));
                    Thread.sleep(500);
                }
                assertThat(receiver.accepted()).isEmpty();
                assertThat(metric(notifier, "healthmesh_notifier_lag_seconds", "hook", null)).isGreaterThan(10);
                receiver.start();
                Await.until(PATIENCE, () -> receiver.accepted().size() >= 40, () -> receiver.accepted().size() + "");
                awaitCommittedToEnd(kafka, "outage", state);
                List<Received> got = receiver.accepted();
                assertThat(got).hasSize(40);
                assertThat(got.stream().map(Received::idempotencyKey).distinct()).hasSize(40);
                for (int i = 0; i < 20; i++) {
                    String id = "t-" + i;
                    List<String> types = got.stream().filter(r -> r.alertId().equals(id)).map(Received::type).toList();
                    assertThat(types).as(id).containsExactly("firing", "resolved");
                }
                assertThat(metric(notifier, "healthmesh_notifier_pending", "hook", null)).isZero();
                assertThat(metric(notifier, "healthmesh_notifier_retrying", "hook", null)).isZero();
            }
        }
    }

    @Test
    void twoReplicasSplitTheWorkAndSendEachNotificationOnce(TestKafka kafka) throws Exception {
        try (StateTopics state = new StateTopics(kafka, 6);
             TestReceiver receiver = TestReceiver.start(0)) {
            String routes = "routes: [{name: hook, type: webhook, url: '%s'}]\n".formatted(receiver.url("/hook"));
            Map<String, String> settings = NotifierSettings.of(kafka, state, "replicas", dir, routes);
            try (NotifierWorker a = NotifierWorker.start(NotifierConfig.from(settings));
                 NotifierWorker b = NotifierWorker.start(NotifierConfig.from(settings))) {
                awaitReady(a, b);
                try (Admin admin = kafka.admin()) {
                    Await.until(PATIENCE, () -> {
                        ConsumerGroupDescription g = describe(admin, "replicas");
                        return g != null && g.groupState() == GroupState.STABLE && g.members().size() == 2
                                && g.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty())
                                && g.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum() == 12;
                    }, () -> String.valueOf(describe(admin, "replicas")));
                }
                long t0 = System.currentTimeMillis();
                for (int i = 0; i < 30; i++) {
                    state.state("r-" + i, "g", HealthStatus.UNHEALTHY, t0);
                }
                for (int i = 0; i < 30; i++) {
                    state.state("r-" + i, "g", HealthStatus.HEALTHY, t0 + 2_000);
                }
                Await.until(PATIENCE, () -> receiver.accepted().size() >= 60, () -> receiver.accepted().size() + "");
                awaitCommittedToEnd(kafka, "replicas", state);
                Map<String, Long> perKey = receiver.accepted().stream()
                        .collect(Collectors.groupingBy(Received::idempotencyKey, Collectors.counting()));
                assertThat(perKey).hasSize(60);
                assertThat(perKey.values()).as("no notification sent twice").allMatch(n -> n == 1);
                assertThat(metric(a, "healthmesh_notifier_sent", "hook", null)).isPositive();
                assertThat(metric(b, "healthmesh_notifier_sent", "hook", null)).isPositive();
                assertThat(metric(a, "healthmesh_notifier_sent", "hook", null)
                        + metric(b, "healthmesh_notifier_sent", "hook", null)).isEqualTo(60);
            }
        }
    }

    @Test
    void aReplicaLeavingMidDeliveryHandsOverWithNothingLostAndCopiesKeepTheirKey(TestKafka kafka) throws Exception {
        try (StateTopics state = new StateTopics(kafka, 6);
             TestReceiver receiver = TestReceiver.start(0)) {
            receiver.delay(100); // about 10 deliveries a second per replica: the hand-over happens mid-delivery
            String routes = "routes: [{name: hook, type: webhook, url: '%s'}]\n".formatted(receiver.url("/hook"));
            Map<String, String> settings = NotifierSettings.of(kafka, state, "handover", dir, routes);
            try (NotifierWorker stays = NotifierWorker.start(NotifierConfig.from(settings))) {
                NotifierWorker leaves = NotifierWorker.start(NotifierConfig.from(settings));
                try (Admin admin = kafka.admin()) {
                    Await.until(PATIENCE, () -> {
                        ConsumerGroupDescription g = describe(admin, "handover");
                        return g != null && g.groupState() == GroupState.STABLE && g.members().size() == 2
                                && g.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
                    }, () -> String.valueOf(describe(admin, "handover")));
                }
                long t0 = System.currentTimeMillis();
                for (int i = 0; i < 30; i++) {
                    state.state("h-" + i, "g", HealthStatus.UNHEALTHY, t0);
                }
                for (int i = 0; i < 30; i++) {
                    state.state("h-" + i, "g", HealthStatus.HEALTHY, t0 + 2_000);
                }
                Await.until(PATIENCE, () -> metric(leaves, "healthmesh_notifier_sent", "hook", null) >= 3
                        && metric(leaves, "healthmesh_notifier_pending", "hook", null) >= 3,
                        () -> "leaving replica sent " + metric(leaves, "healthmesh_notifier_sent", "hook", null));
                leaves.close();
                Await.until(PATIENCE, () -> receiver.accepted().stream().map(Received::idempotencyKey).distinct()
                        .count() >= 60, () -> receiver.accepted().size() + "");
                awaitCommittedToEnd(kafka, "handover", state);
                Map<String, Set<String>> keysPerMessage = receiver.accepted().stream().collect(Collectors.groupingBy(
                        r -> r.alertId() + " " + r.type(), Collectors.mapping(Received::idempotencyKey,
                                Collectors.toSet())));
                assertThat(keysPerMessage).hasSize(60);
                assertThat(keysPerMessage.values()).as("a copy, if any, carries the key of the original")
                        .allMatch(keys -> keys.size() == 1);
                for (int i = 0; i < 30; i++) {
                    String id = "h-" + i;
                    List<String> order = receiver.accepted().stream().filter(r -> r.alertId().equals(id))
                            .map(Received::type).distinct().toList();
                    assertThat(order).as(id).containsExactly("firing", "resolved");
                }
            }
        }
    }

    /** The group as the broker describes it, or null while the broker does not know it yet (Kafka 4 says so). */
    static ConsumerGroupDescription describe(Admin admin, String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return null;
            }
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Map<TopicPartition, Long> committed(TestKafka kafka, String group) {
        try (Admin admin = kafka.admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, Long> out = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (o != null) {
                    out.put(tp, o.offset());
                }
            });
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<TopicPartition, Long> ends(TestKafka kafka, StateTopics state) {
        try (Admin admin = kafka.admin()) {
            Set<TopicPartition> partitions = new TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
            for (String topic : List.of(state.topics.healthState(), state.topics.groupState())) {
                admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            return admin.listOffsets(partitions.stream().collect(Collectors.toMap(Function.identity(),
                            tp -> org.apache.kafka.clients.admin.OffsetSpec.latest()))).all().get()
                    .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void awaitCommittedToEnd(TestKafka kafka, String group, StateTopics state) {
        Map<TopicPartition, Long> ends = ends(kafka, state);
        Await.until(PATIENCE, () -> {
            Map<TopicPartition, Long> committed = committed(kafka, group);
            return ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                    || committed.getOrDefault(e.getKey(), -1L).equals(e.getValue()));
        }, () -> "committed " + committed(kafka, group) + ", ends " + ends);
    }

    @SuppressWarnings("unused")
    private static List<MemberDescription> members(ConsumerGroupDescription g) {
        return List.copyOf(g.members());
    }
}
