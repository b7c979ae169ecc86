package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.MaintenanceInForce;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.healthmesh.aggregator.topology.MaintenanceScenario.A;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.B;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.C;
import static io.healthmesh.aggregator.topology.MaintenanceScenario.ms;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group events and maintenance windows through the topology with a fake wall clock: a window whose selector is the
 * group makes its start and end (or its deletion) each produce a group event carrying (then no longer carrying) it,
 * the routing unchanged; routing changes inside the window carry it; several windows follow the targets' precedence;
 * a target or label window covers members, never the group.
 */
class GroupMaintenanceEventsTest {

    @TempDir
    Path stateDir;
    private MaintenanceScenario scenario;
    private AggregatorDriver d;

    @BeforeEach
    void start() {
        scenario = new MaintenanceScenario(stateDir);
        d = scenario.d;
    }

    @AfterEach
    void stop() {
        scenario.close();
    }

    private List<GroupHealth> groupEvents(String group) {
        return d.groupEvents().stream().filter(r -> r.key().equals(group)).map(TestRecord::value).toList();
    }

    private static String carried(GroupHealth e) {
        MaintenanceInForce m = e.getMaintenance();
        return m == null ? null : m.getId() + "/" + m.getMode();
    }

    /** Both members of web down: the group fails open. Events so far are read and dropped. */
    private void webFailsOpen() {
        d.at(0).define(A);
        d.define(B);
        scenario.three(Outcome.TIMEOUT, A, B);
        List<GroupHealth> before = groupEvents("web");
        assertThat(before).last().extracting(GroupHealth::getFailOpen).isEqualTo(true);
        assertThat(before).allSatisfy(e -> assertThat(e.getMaintenance()).isNull());
        d.healthEvents();
    }

    @Test
    void aGroupWindowsStartAndEndEachProduceAGroupEventWithTheRoutingUnchanged() {
        webFailsOpen();
        scenario.window("m1", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 200);
        d.at(50);
        assertThat(groupEvents("web")).as("nothing before the window starts").isEmpty();

        d.at(100);
        List<GroupHealth> started = groupEvents("web");
        assertThat(started).hasSize(1);
        assertThat(carried(started.get(0))).isEqualTo("m1/SILENCE");
        assertThat(started.get(0).getMaintenance().getStartMs()).isEqualTo(ms(100));
        assertThat(started.get(0).getMaintenance().getUntilMs()).isEqualTo(ms(200));
        assertThat(started.get(0).getFailOpen()).isTrue();
        assertThat(started.get(0).getRoutable()).containsExactly("a", "b");
        assertThat(started.get(0).getUpdatedAtMs()).isEqualTo(d.now());

        d.at(150);
        assertThat(groupEvents("web")).as("nothing while the window lasts and the routing stays").isEmpty();

        d.at(201);
        List<GroupHealth> ended = groupEvents("web");
        assertThat(ended).hasSize(1);
        assertThat(ended.get(0).getMaintenance()).isNull();
        assertThat(ended.get(0).getFailOpen()).isTrue();
        assertThat(ended.get(0).getRoutable()).containsExactly("a", "b");
    }

    @Test
    void routingChangesInsideTheWindowCarryIt() {
        webFailsOpen();
        scenario.window("m1", MaintenanceSelector.group("web"), MaintenanceMode.DRAIN, 100, 200);
        d.at(100);
        groupEvents("web");
        scenario.second = 120;
        scenario.three(Outcome.SUCCESS, A);
        List<GroupHealth> recovered = groupEvents("web");
        assertThat(recovered).hasSize(1);
        assertThat(recovered.get(0).getFailOpen()).isFalse();
        assertThat(recovered.get(0).getRoutable()).as("the group's maintenance row is no member").containsExactly("a");
        assertThat(carried(recovered.get(0))).isEqualTo("m1/DRAIN");
        d.at(150);
        assertThat(groupEvents("web")).as("the routing change carried the window: no second event for it").isEmpty();
    }

    @Test
    void overlappingGroupWindowsDrainFirstThenTheLatestEndThenTheSmallestId() {
        webFailsOpen();
        scenario.window("s-b", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 400);
        scenario.window("s-a", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 400);
        scenario.window("s-short", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 300);
        scenario.window("d", MaintenanceSelector.group("web"), MaintenanceMode.DRAIN, 150, 250);
        d.at(100);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly("s-a/SILENCE");
        d.at(150);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly("d/DRAIN");
        d.at(250);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly("s-a/SILENCE");
        d.at(300);
        assertThat(groupEvents("web")).as("s-short ends, s-a goes on").isEmpty();
        d.at(400);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly((String) null);
    }

    @Test
    void aTargetOrLabelWindowCoversMembersNotTheGroup() {
        TargetSpec b = new TargetSpec(B.id(), B.group(), B.address(), B.port(), B.protocol(), B.intervalMs(),
                B.timeoutMs(), B.healthyThreshold(), B.unhealthyThreshold(), B.enabled(), B.weight(),
                Map.of("zone", "z1"), B.http(), B.udp(), B.tcp(), B.regions(), B.quorum(), B.quorumAtLeast());
        d.at(0).define(A);
        d.define(b);
        d.define(C);
        scenario.three(Outcome.TIMEOUT, A, b, C);
        d.groupEvents();
        d.healthEvents();
        scenario.window("t", MaintenanceSelector.target("a"), MaintenanceMode.DRAIN, 100, 200);
        scenario.window("l", MaintenanceSelector.labels(Map.of("zone", "z1")), MaintenanceMode.SILENCE, 100, 200);
        scenario.window("g", MaintenanceSelector.group("db"), MaintenanceMode.SILENCE, 100, 200);
        d.at(100);
        assertThat(d.healthEvents()).extracting(TestRecord::key).as("the members are covered")
                .containsExactlyInAnyOrder("a", "b", "c");
        List<TestRecord<String, GroupHealth>> groups = d.groupEvents();
        assertThat(groups).extracting(TestRecord::key).as("only the group a window names").containsExactly("db");
        scenario.second = 120;
        scenario.three(Outcome.SUCCESS, A);
        assertThat(groupEvents("web")).last().satisfies(e -> {
            assertThat(e.getFailOpen()).isFalse();
            assertThat(e.getMaintenance()).as("a's own window does not cover web").isNull();
        });
    }

    @Test
    void aDeletedWindowEndsAtOnceForTheGroup() {
        webFailsOpen();
        scenario.window("m", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 500);
        d.at(100);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly("m/SILENCE");
        d.at(150);
        scenario.pipe("m", null);
        d.at(151);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly((String) null);
    }

    @Test
    void aGroupThatEmptiesForgetsItsWindowAndOneThatComesBackCarriesItAfresh() {
        webFailsOpen();
        scenario.window("m", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 500);
        d.at(100);
        assertThat(groupEvents("web")).hasSize(1);
        d.delete("a");
        d.delete("b");
        assertThat(groupEvents("web")).last().isNull(); // the tombstone
        d.at(110);
        assertThat(groupEvents("web")).as("no event for a group without members").isEmpty();
        d.define(A);
        List<GroupHealth> back = groupEvents("web");
        assertThat(back).hasSize(1);
        assertThat(carried(back.get(0))).isEqualTo("m/SILENCE");
        d.at(501);
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly((String) null);
    }

    @Test
    void targetEventsAreUnchangedByAGroupsOwnWindow() {
        webFailsOpen();
        scenario.window("m", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 100, 200);
        d.at(100);
        assertThat(d.healthEvents()).extracting(r -> r.value().getMaintenance().getId()).containsExactly("m", "m");
        assertThat(groupEvents("web")).extracting(GroupMaintenanceEventsTest::carried).containsExactly("m/SILENCE");
    }
}
