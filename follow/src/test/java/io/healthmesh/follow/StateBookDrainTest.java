package io.healthmesh.follow;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.MaintenanceInForce;
import io.healthmesh.schema.MaintenanceMode;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A DRAIN window in a member's state event makes it draining in the view; a SILENCE does not; the version moves. */
class StateBookDrainTest {

    private final StateBook book = new StateBook();

    @Test
    void aDrainWindowMarksTheMemberDrainingAndItsEndUnmarksIt() {
        book.applyTarget("a", definition("a"));
        book.applyTarget("b", definition("b"));
        book.applyGroup("web", GroupHealth.newBuilder().setGroupId("web").setFailOpen(false).setMembers(2)
                .setHealthy(2).setUnhealthy(0).setDetecting(0).setDisabled(0).setRoutable(List.of("a", "b"))
                .setUpdatedAtMs(1).build());
        book.applyHealth("a", event("a", MaintenanceMode.DRAIN));
        book.applyHealth("b", event("b", MaintenanceMode.SILENCE));
        GroupView drained = book.update().state().group("web").orElseThrow();
        assertThat(drained.members()).extracting(Member::targetId, Member::draining, Member::served)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", true, true),
                        org.assertj.core.groups.Tuple.tuple("b", false, true));

        book.applyHealth("a", event("a", null));
        StateBook.Update after = book.update();
        assertThat(after.changedGroups()).containsExactly("web");
        GroupView undrained = after.state().group("web").orElseThrow();
        assertThat(undrained.members()).noneMatch(Member::draining);
        assertThat(undrained.version()).isNotEqualTo(drained.version());
    }

    private static TargetDefinition definition(String id) {
        return TargetDefinition.newBuilder().setId(id).setGroup("web").setAddress("127.0.0.1").setPort(80)
                .setProtocol(Protocol.TCP).build();
    }

    private static TargetHealth event(String id, MaintenanceMode mode) {
        MaintenanceInForce m = mode == null ? null : MaintenanceInForce.newBuilder().setId("m").setMode(mode)
                .setStartMs(1).setUntilMs(2).build();
        return TargetHealth.newBuilder().setTargetId(id).setGroup("web").setStatus(HealthStatus.HEALTHY)
                .setSinceMs(1).setGeneration(1).setUpdatedAtMs(1).setMaintenance(m).build();
    }
}
