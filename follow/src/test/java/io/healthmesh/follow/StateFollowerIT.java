package io.healthmesh.follow;

import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(KafkaExtension.class)
class StateFollowerIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private record Call(FollowedState state, Set<String> changed) {
    }

    @Test
    void tellsNothingUntilCaughtUpThenEveryChangedGroup(TestKafka kafka) {
        try (StateTopicWriter w = new StateTopicWriter(kafka, "follow", 3)) {
            for (int i = 0; i < 20; i++) {
                String id = "t" + i;
                w.define(id, "g" + (i % 4), "127.0.0.1", 9000 + i, 1, Map.of());
                w.state(id, "g" + (i % 4), HealthStatus.HEALTHY, 1);
            }
            for (int g = 0; g < 4; g++) {
                List<String> members = List.of("t" + g, "t" + (g + 4), "t" + (g + 8), "t" + (g + 12), "t" + (g + 16));
                Map<String, HealthStatus> statuses = new java.util.HashMap<>();
                members.forEach(m -> statuses.put(m, HealthStatus.HEALTHY));
                w.group("g" + g, false, statuses, members, 1);
            }
            List<Call> calls = new CopyOnWriteArrayList<>();
            try (StateFollower f = StateFollower.start(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    kafka.serdeConfig(), w.topics(), (s, c) -> calls.add(new Call(s, c)), new PrometheusRegistry(),
                    "healthmesh_test")) {
                Await.until(PATIENCE, f::caughtUp, () -> "not caught up");
                Await.until(PATIENCE, () -> !calls.isEmpty(), () -> "no first call");
                Call first = calls.get(0);
                assertThat(first.changed()).containsExactlyInAnyOrder("g0", "g1", "g2", "g3");
                assertThat(first.state().groups()).hasSize(4);
                assertThat(first.state().group("g1").orElseThrow().served()).hasSize(5);

                // a member goes down: the group's new event routes to the other four
                w.state("t1", "g1", HealthStatus.UNHEALTHY, 2);
                Map<String, HealthStatus> statuses = new java.util.HashMap<>(Map.of("t1", HealthStatus.UNHEALTHY,
                        "t5", HealthStatus.HEALTHY, "t9", HealthStatus.HEALTHY, "t13", HealthStatus.HEALTHY,
                        "t17", HealthStatus.HEALTHY));
                w.group("g1", false, statuses, List.of("t5", "t9", "t13", "t17"), 2);
                Await.until(PATIENCE, () -> f.state().group("g1").orElseThrow().served().size() == 4,
                        () -> String.valueOf(f.state().group("g1")));
                Call last = calls.get(calls.size() - 1);
                assertThat(last.changed()).containsExactly("g1");
                assertThat(calls.stream().flatMap(c -> c.changed().stream()).filter(g -> !g.equals("g1")))
                        .as("no other group told again after the first call")
                        .hasSize(3);
                Await.until(PATIENCE, () -> f.lagRecords() == 0, () -> "lag " + f.lagRecords());
            }
        }
    }

    @Test
    void anUndecodableRecordIsSkippedAndTheRestFollowed(TestKafka kafka) {
        try (StateTopicWriter w = new StateTopicWriter(kafka, "follow-bad", 1)) {
            w.raw(w.topics().groupState(), "junk", new byte[] {1, 2, 3});
            w.define("a", "web", "127.0.0.1", 1, 1, Map.of());
            w.state("a", "web", HealthStatus.HEALTHY, 1);
            w.group("web", false, Map.of("a", HealthStatus.HEALTHY), List.of("a"), 1);
            PrometheusRegistry metrics = new PrometheusRegistry();
            try (StateFollower f = StateFollower.start(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    kafka.serdeConfig(), w.topics(), (s, c) -> { }, metrics, "healthmesh_test")) {
                Await.until(PATIENCE, f::caughtUp, () -> "not caught up");
                assertThat(f.state().group("web").orElseThrow().served()).hasSize(1);
                assertThat(f.state().group("junk")).isEmpty();
                CounterSnapshot failures = (CounterSnapshot) metrics.scrape().stream()
                        .filter(m -> m.getMetadata().getName().equals("healthmesh_test_follow_decode_failures"))
                        .findFirst().orElseThrow();
                assertThat(failures.getDataPoints().get(0).getValue()).isEqualTo(1.0);
            }
        }
    }
}
