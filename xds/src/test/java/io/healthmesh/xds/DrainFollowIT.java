package io.healthmesh.xds;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.StateFollower;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.MaintenanceMode;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.xds.map.EndpointMapping;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A DRAIN window in a member's state event, read by the real follower from the broker, reaches the EDS assignment as
 * {@code DRAINING}; the event that ends the window makes it {@code HEALTHY} again. The group event is not touched:
 * the member stays in the routable set throughout.
 */
@ExtendWith(KafkaExtension.class)
class DrainFollowIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Test
    void aDrainingMemberIsServedAsDrainingUntilItsWindowEnds(TestKafka kafka) {
        io.healthmesh.schema.HealthStatus healthy = io.healthmesh.schema.HealthStatus.HEALTHY;
        try (StateTopicWriter w = new StateTopicWriter(kafka, "drain", 2);
             AvroSerde<TargetHealth> serde = AvroSerde.forValues(TargetHealth.class, kafka.serdeConfig())) {
            w.define("a", "web", "10.0.0.1", 80, 10, Map.of());
            w.define("b", "web", "10.0.0.2", 80, 10, Map.of());
            w.state("a", "web", healthy, 1);
            w.state("b", "web", healthy, 1);
            w.group("web", false, Map.of("a", healthy, "b", healthy), List.of("a", "b"), 1);
            EndpointMapping mapping = new EndpointMapping("zone");
            try (StateFollower f = StateFollower.start(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    kafka.serdeConfig(), w.topics(), (s, c) -> { }, new PrometheusRegistry(), "healthmesh_test")) {
                Await.until(PATIENCE, f::caughtUp, () -> "not caught up");
                assertThat(health(mapping, f)).containsEntry("10.0.0.1", HealthStatus.HEALTHY);

                TargetHealth draining = TargetHealth.newBuilder().setTargetId("a").setGroup("web").setStatus(healthy)
                        .setSinceMs(1).setGeneration(1).setUpdatedAtMs(2).setMaintenance(MaintenanceInForce
                                .newBuilder().setId("m-1").setMode(MaintenanceMode.DRAIN).setStartMs(2)
                                .setUntilMs(1_000_000).build()).build();
                w.raw(w.topics().healthState(), "a", serde.serializer().serialize(w.topics().healthState(),
                        draining));
                Await.until(PATIENCE, () -> health(mapping, f).get("10.0.0.1") == HealthStatus.DRAINING,
                        () -> "a not DRAINING: " + health(mapping, f));
                assertThat(health(mapping, f)).containsEntry("10.0.0.2", HealthStatus.HEALTHY);
                assertThat(f.state().group("web").orElseThrow().served()).hasSize(2);

                w.state("a", "web", healthy, 3);
                Await.until(PATIENCE, () -> health(mapping, f).get("10.0.0.1") == HealthStatus.HEALTHY,
                        () -> "a still DRAINING after its window: " + health(mapping, f));
            }
        }
    }

    private static Map<String, HealthStatus> health(EndpointMapping mapping, StateFollower f) {
        Map<String, HealthStatus> out = new TreeMap<>();
        GroupView view = f.state().group("web").orElse(null);
        if (view == null) {
            return out;
        }
        mapping.map(view, "web").assignment().getEndpointsList().forEach(l -> {
            for (LbEndpoint e : l.getLbEndpointsList()) {
                out.put(e.getEndpoint().getAddress().getSocketAddress().getAddress(), e.getHealthStatus());
            }
        });
        return out;
    }
}
