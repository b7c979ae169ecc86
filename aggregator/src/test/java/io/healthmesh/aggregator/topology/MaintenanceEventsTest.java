package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.RejectedHeaders;
import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.TargetHealth;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.healthmesh.aggregator.topology.MaintenanceScenario.A;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.B;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.C;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.ms;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.slow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Maintenance windows through the topology with a fake wall clock: a window's start and end each produce a state
 * event carrying (then no longer carrying) the window, whatever the target's status; overlapping windows, label
 * selectors, a target joining a window's group, a window deleted early, a bad record rejected with its bytes.
 */
class MaintenanceEventsTest {

    @TempDir
    Path stateDir;
    private MaintenanceScenario scenario;
    private AggregatorDriver d;
    private TestInputTopic<byte[], byte[]> rawMaintenance;

    @BeforeEach
    void start() {
        scenario = new MaintenanceScenario(stateDir);
        d = scenario.d;
        rawMaintenance = d.driver.createInputTopic(d.config.topics().maintenance(), new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    @AfterEach
    void stop() {
        scenario.close();
    }

    private static TargetSpec labelled(TargetSpec s, Map<String, String> labels) {
        return new TargetSpec(s.id(), s.group(), s.address(), s.port(), s.protocol(), s.intervalMs(), s.timeoutMs(),
                s.healthyThreshold(), s.unhealthyThreshold(), s.enabled(), s.weight(), labels, s.http(), s.udp(),
                s.tcp(), s.regions(), s.quorum(), s.quorumAtLeast());
    }

    private List<TargetHealth> events(String id) {
        return d.healthEvents().stream().filter(r -> r.key().equals(id)).map(TestRecord::value).toList();
    }

    private static String carried(TargetHealth e) {
        MaintenanceInForce m = e.getMaintenance();
        return m == null ? null : m.getId() + "/" + m.getMode();
    }

    @Test
    void aWindowStartingWhileHealthyDrainsAndItsEndUndrainsWithTheStatusKept() {
        d.at(0).define(A);
        scenario.three(Outcome.SUCCESS, A);
        d.healthEvents();
        scenario.window("m1", MaintenanceSelector.group("web"), MaintenanceMode.DRAIN, 100, 200);
        d.at(50);
        assertThat(events("a")).as("nothing before the window starts").isEmpty();

        d.at(100);
        List<TargetHealth> started = events("a");
        assertThat(started).hasSize(1);
        assertThat(started.get(0).getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(carried(started.get(0))).isEqualTo("m1/DRAIN");
        assertThat(started.get(0).getMaintenance().getUntilMs()).isEqualTo(ms(200));

        scenario.second = 150;
        scenario.three(Outcome.SUCCESS, A);
        assertThat(events("a")).as("results inside the window change nothing").isEmpty();

        d.at(201);
        List<TargetHealth> ended = events("a");
        assertThat(ended).hasSize(1);
        assertThat(ended.get(0).getStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(ended.get(0).getMaintenance()).isNull();
    }

    @Test
    void aWindowStartingWhileUnhealthyKeepsTheStatusAndStatusChangesInsideCarryIt() {
        d.at(0).define(A);
        scenario.three(Outcome.TIMEOUT, A);
        assertThat(events("a")).last().extracting(TargetHealth::getStatus).isEqualTo(HealthStatus.UNHEALTHY);
        scenario.window("m1", MaintenanceSelector.target("a"), MaintenanceMode.SILENCE, 10, 100);
        d.at(10);
        List<TargetHealth> started = events("a");
        assertThat(started).singleElement().satisfies(e -> {
            assertThat(e.getStatus()).isEqualTo(HealthStatus.UNHEALTHY);
            assertThat(carried(e)).isEqualTo("m1/SILENCE");
        });
        scenario.second = 20;
        scenario.three(Outcome.SUCCESS, A);
        assertThat(events("a")).last().satisfies(e -> {
            assertThat(e.getStatus()).isEqualTo(HealthStatus.HEALTHY);
            assertThat(carried(e)).isEqualTo("m1/SILENCE");
        });
    }

    @Test
    void overlappingWindowsDrainWinsThenTheLongerOneIsLeft() {
        d.at(0).define(A);
        scenario.window("s", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 400);
        scenario.window("d", MaintenanceSelector.target("a"), MaintenanceMode.DRAIN, 200, 300);
        d.healthEvents();
        d.at(100);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("s/SILENCE");
        d.at(200);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("d/DRAIN");
        d.at(300);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("s/SILENCE");
        d.at(400);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly((String) null);
    }

    @Test
    void aLabelSelectorCoversOnlyTargetsWithEveryLabelAndFollowsLabelChanges() {
        d.at(0).define(labelled(A, Map.of("rack", "r1")));
        d.define(labelled(B, Map.of("rack", "r2")));
        d.healthEvents();
        scenario.window("rack1", MaintenanceSelector.labels(Map.of("rack", "r1")), MaintenanceMode.DRAIN, 10, 100);
        d.at(10);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("rack1/DRAIN");
        assertThat(events("b")).isEmpty();

        d.at(20).define(labelled(B, Map.of("rack", "r1")));
        assertThat(events("b")).extracting(MaintenanceEventsTest::carried).containsExactly("rack1/DRAIN");
        d.at(30).define(labelled(A, Map.of("rack", "r3")));
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly((String) null);
    }

    @Test
    void aTargetJoiningTheGroupDuringTheWindowIsCoveredAndOneLeavingItIsNot() {
        d.at(0).define(A);
        d.define(C);
        scenario.window("m", MaintenanceSelector.group("web"), MaintenanceMode.DRAIN, 10, 100);
        d.at(10);
        d.healthEvents();
        d.at(20).define(C.withGroup("web"));
        assertThat(events("c")).extracting(MaintenanceEventsTest::carried).containsExactly("m/DRAIN");
        d.at(30).define(A.withGroup("api"));
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly((String) null);
        d.at(40).define(slow("new", "web"));
        assertThat(events("new")).extracting(MaintenanceEventsTest::carried).containsExactly("m/DRAIN");
    }

    @Test
    void aDeletedWindowEndsAtOnceAndAShortenedOneAnnouncesItsNewEnd() {
        d.at(0).define(A);
        scenario.window("m", MaintenanceSelector.target("a"), MaintenanceMode.DRAIN, 10, 1_000);
        d.at(10);
        d.healthEvents();
        d.at(20);
        scenario.window("m", MaintenanceSelector.target("a"), MaintenanceMode.DRAIN, 10, 500);
        d.at(21);
        assertThat(events("a")).singleElement()
                .satisfies(e -> assertThat(e.getMaintenance().getUntilMs()).isEqualTo(ms(500)));
        scenario.pipe("m", null);
        d.at(22);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly((String) null);
        d.at(600);
        assertThat(events("a")).isEmpty();
    }

    @Test
    void aWindowWrittenAfterItsStartAppliesAtTheNextPass() {
        d.at(0).define(A);
        d.healthEvents();
        d.at(50);
        scenario.window("late", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 0, 100);
        d.at(51);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("late/SILENCE");
    }

    @Test
    void aBadRecordIsRejectedWithItsBytesAndTheNextOneStillApplies() {
        d.at(0).define(A);
        d.healthEvents();
        byte[] garbage = "not avro".getBytes(StandardCharsets.UTF_8);
        rawMaintenance.pipeInput("x".getBytes(StandardCharsets.UTF_8), garbage, Instant.ofEpochMilli(d.now()));
        MaintenanceWindow tooLong = new MaintenanceWindow("long", MaintenanceSelector.target("a"),
                MaintenanceMode.DRAIN, ms(0), ms(0) + 40L * 24 * 3_600_000, "r", 0, null);
        scenario.pipe("long", MaintenanceRecords.toAvro(tooLong));
        MaintenanceWindow otherKey = new MaintenanceWindow("k2", MaintenanceSelector.target("a"),
                MaintenanceMode.DRAIN, ms(0), ms(100), "r", 0, null);
        scenario.pipe("k1", MaintenanceRecords.toAvro(otherKey));

        List<TestRecord<byte[], byte[]>> rejected = d.rejected.readRecordsToList();
        assertThat(rejected).hasSize(3);
        assertThat(rejected.get(0).value()).isEqualTo(garbage);
        assertThat(reason(rejected.get(0))).isEqualTo("NOT_AVRO_WIRE_FORMAT");
        assertThat(reason(rejected.get(1))).isEqualTo(MaintenanceDecoder.INVALID_MAINTENANCE);
        assertThat(reason(rejected.get(2))).isEqualTo(MaintenanceDecoder.INVALID_MAINTENANCE);
        assertThat(d.metric("rejected-records-total", MaintenanceDecoder.INVALID_MAINTENANCE)).isEqualTo(2);

        scenario.window("good", MaintenanceSelector.target("a"), MaintenanceMode.DRAIN, 1, 100);
        d.at(1);
        assertThat(events("a")).extracting(MaintenanceEventsTest::carried).containsExactly("good/DRAIN");
    }

    @Test
    void aDeletedTargetLeavesNoRowBehind() {
        d.at(0).define(A);
        scenario.window("m", MaintenanceSelector.group("web"), MaintenanceMode.DRAIN, 10, 100);
        d.delete("a");
        d.healthEvents();
        d.at(10);
        assertThat(events("a")).isEmpty();
        assertThat(d.driver.getKeyValueStore(AggregatorTopology.TARGET_MAINTENANCE_STORE).get("a")).isNull();
    }

    private static String reason(TestRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(RejectedHeaders.REASON);
        return new String(h.value(), StandardCharsets.UTF_8);
    }
}
