package io.healthmesh.notifier;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.MaintenanceMode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A group event's maintenance window reaches the alert book as it does for a target's event. */
class StateDecoderTest {

    @TempDir
    Path dir;
    private NotifierConfig config;
    private AvroSerde<GroupHealth> groups;
    private StateDecoder decoder;

    @BeforeEach
    void start() throws Exception {
        Path routes = Files.writeString(dir.resolve("routes.yaml"),
                "routes: [{name: a, type: webhook, url: 'http://127.0.0.1:1/'}]\n");
        config = NotifierConfig.from(Map.of("bootstrap.servers", "unused:9092",
                "schema.registry.url", "mem://state-decoder-" + UUID.randomUUID(), "routes.file", routes.toString()));
        groups = AvroSerde.forValues(GroupHealth.class, config.serdeConfig());
        decoder = new StateDecoder(config, id -> Map.of());
    }

    @AfterEach
    void stop() {
        groups.close();
    }

    private Observation decode(GroupHealth event) {
        String topic = config.topics().groupState();
        return decoder.decode(new ConsumerRecord<>(topic, 0, 7, 5_000L, TimestampType.CREATE_TIME, 0, 0,
                "web".getBytes(StandardCharsets.UTF_8), groups.serializer().serialize(topic, event), new RecordHeaders(),
                Optional.empty()));
    }

    private static GroupHealth.Builder failOpen() {
        return GroupHealth.newBuilder().setGroupId("web").setFailOpen(true).setMembers(2).setHealthy(0)
                .setUnhealthy(2).setDetecting(0).setDisabled(0).setRoutable(List.of("a", "b"))
                .setUpdatedAtMs(9_000).setFailOpenReason("NO_HEALTHY_MEMBER");
    }

    @Test
    void aGroupEventsWindowBecomesTheObservationsMark() {
        Observation o = decode(failOpen().setMaintenance(MaintenanceInForce.newBuilder().setId("m1")
                .setMode(MaintenanceMode.DRAIN).setStartMs(8_000).setUntilMs(20_000).build()).build());
        assertThat(o.status()).isEqualTo(Observation.FAIL_OPEN);
        assertThat(o.underMaintenance()).isTrue();
        assertThat(o.maintenance()).isEqualTo(new Observation.MaintenanceMark("m1", "DRAIN", 20_000));
        assertThat(o.sinceMs()).isEqualTo(9_000);
        assertThat(o.atMs()).as("a group event is dated by when it was produced").isEqualTo(9_000);
    }

    @Test
    void aGroupEventWithoutAWindowHasNoMark() {
        Observation o = decode(failOpen().build());
        assertThat(o.underMaintenance()).isFalse();
        assertThat(o.atMs()).isEqualTo(9_000);
    }
}
