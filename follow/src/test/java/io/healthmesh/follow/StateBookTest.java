package io.healthmesh.follow;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StateBookTest {

    private final StateBook book = new StateBook();

    @Test
    void membersComeFromDefinitionsAndServedFromTheGroupsCompleteRoutableList() {
        define("a", "web", 8001);
        define("b", "web", 8002);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        health("b", io.healthmesh.schema.HealthStatus.UNHEALTHY);
        group("web", false, List.of("a"), false);

        StateBook.Update u = book.update();

        assertThat(u.changedGroups()).containsExactly("web");
        GroupView web = u.state().group("web").orElseThrow();
        assertThat(web.members()).extracting(Member::targetId).containsExactly("a", "b");
        assertThat(web.served()).extracting(Member::targetId).containsExactly("a");
        assertThat(web.members().get(1).status()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(web.members().get(0).port()).isEqualTo(8001);
        assertThat(web.keptLastServed()).isFalse();
    }

    @Test
    void theEventDecidesEvenWhenAMembersOwnStateDisagrees() {
        // the member's event says HEALTHY, the group's latest event (not yet updated) does not route to it
        define("a", "web", 1);
        define("b", "web", 2);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        health("b", io.healthmesh.schema.HealthStatus.HEALTHY);
        group("web", false, List.of("a"), false);

        assertThat(book.update().state().group("web").orElseThrow().served())
                .extracting(Member::targetId).containsExactly("a");
    }

    @Test
    void failOpenServesEveryMemberTheEventNames() {
        define("a", "web", 1);
        define("b", "web", 2);
        health("a", io.healthmesh.schema.HealthStatus.UNHEALTHY);
        health("b", io.healthmesh.schema.HealthStatus.UNHEALTHY);
        group("web", true, List.of("a", "b"), false);

        GroupView web = book.update().state().group("web").orElseThrow();
        assertThat(web.failOpen()).isTrue();
        assertThat(web.served()).hasSize(2);
    }

    @Test
    void aGroupBelowItsPanicThresholdIsServedWhollyLikeAGroupWithoutHealthyMember() {
        // one of four HEALTHY, below the group's threshold: the aggregator's event fails open and names every member
        define("a", "pool", 1);
        define("b", "pool", 2);
        define("c", "pool", 3);
        define("d", "pool", 4);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        for (String id : List.of("b", "c", "d")) {
            health(id, io.healthmesh.schema.HealthStatus.UNHEALTHY);
        }
        GroupHealth panic = groupEvent("pool", true, List.of("a", "b", "c", "d"), false);
        panic.setFailOpenReason("BELOW_MIN_HEALTHY");
        book.applyGroup("pool", panic);
        GroupView whole = book.update().state().group("pool").orElseThrow();
        assertThat(whole.failOpen()).isTrue();
        assertThat(whole.failOpenReason()).isEqualTo("BELOW_MIN_HEALTHY");
        assertThat(whole.served()).extracting(Member::targetId).containsExactly("a", "b", "c", "d");

        // the reason alone changes nothing a data plane serves: the same version, so no push
        GroupHealth noHealthy = groupEvent("pool", true, List.of("a", "b", "c", "d"), false);
        noHealthy.setFailOpenReason("NO_HEALTHY_MEMBER");
        book.applyGroup("pool", noHealthy);
        GroupView sameServed = book.update().state().group("pool").orElseThrow();
        assertThat(sameServed.failOpenReason()).isEqualTo("NO_HEALTHY_MEMBER");
        assertThat(sameServed.version()).isEqualTo(whole.version());

        // the same with a truncated list: the rule over the flag serves every member, whatever their states
        GroupHealth truncated = groupEvent("pool", true, List.of("a"), true);
        truncated.setFailOpenReason("BELOW_MIN_HEALTHY");
        book.applyGroup("pool", truncated);
        assertThat(book.update().state().group("pool").orElseThrow().served()).hasSize(4);
    }

    @Test
    void aTruncatedListFallsBackToTheRuleOverTheMembersStates() {
        define("a", "big", 1);
        define("b", "big", 2);
        define("c", "big", 3);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        health("b", io.healthmesh.schema.HealthStatus.DISABLED);
        health("c", io.healthmesh.schema.HealthStatus.UNHEALTHY);
        group("big", false, List.of("a"), true);
        assertThat(book.update().state().group("big").orElseThrow().served())
                .extracting(Member::targetId).containsExactly("a", "b");

        group("big", true, List.of("a"), true);
        assertThat(book.update().state().group("big").orElseThrow().served()).hasSize(3);
    }

    @Test
    void anEmptyServedSetKeepsTheLastServedMembersThatAreStillDefined() {
        define("a", "web", 1);
        define("b", "web", 2);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        group("web", false, List.of("a"), false);
        book.update();

        // the group's new event names a member this follower has not read yet: nothing would be served
        group("web", false, List.of("z"), false);
        GroupView web = book.update().state().group("web").orElseThrow();

        assertThat(web.keptLastServed()).isTrue();
        assertThat(web.served()).extracting(Member::targetId).containsExactly("a");
        assertThat(book.keptLastEpisodes()).isEqualTo(1);

        define("z", "web", 3);
        GroupView settled = book.update().state().group("web").orElseThrow();
        assertThat(settled.keptLastServed()).isFalse();
        assertThat(settled.served()).extracting(Member::targetId).containsExactly("z");
    }

    @Test
    void aTargetMovingGroupLeavesTheOldOneAndTombstonesRemoveGroups() {
        define("a", "one", 1);
        define("b", "one", 2);
        group("one", false, List.of("a", "b"), false);
        book.update();

        define("b", "two", 2);
        StateBook.Update moved = book.update();
        assertThat(moved.changedGroups()).containsExactlyInAnyOrder("one", "two");
        assertThat(moved.state().group("one").orElseThrow().members()).extracting(Member::targetId)
                .containsExactly("a");
        assertThat(moved.state().group("two").orElseThrow().members()).extracting(Member::targetId)
                .containsExactly("b");

        book.applyTarget("b", null);
        book.applyGroup("two", null);
        StateBook.Update gone = book.update();
        assertThat(gone.changedGroups()).contains("two");
        assertThat(gone.state().group("two")).isEmpty();
    }

    @Test
    void aRecordThatChangesNothingReportsNoChangeAndKeepsTheVersion() {
        define("a", "web", 1);
        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        group("web", false, List.of("a"), false);
        String version = book.update().state().group("web").orElseThrow().version();

        health("a", io.healthmesh.schema.HealthStatus.HEALTHY);
        group("web", false, List.of("a"), false);
        StateBook.Update again = book.update();

        assertThat(again.changedGroups()).isEmpty();
        assertThat(again.state().group("web").orElseThrow().version()).isEqualTo(version);
    }

    @Test
    void twoBooksThatReadTheSameLatestRecordsInAnotherOrderGiveTheSameVersions() {
        StateBook other = new StateBook();
        define("a", "web", 1);
        define("b", "web", 2);
        health("b", io.healthmesh.schema.HealthStatus.HEALTHY);
        group("web", false, List.of("b"), false);

        other.applyGroup("web", groupEvent("web", false, List.of("b"), false));
        other.applyHealth("b", healthEvent("b", io.healthmesh.schema.HealthStatus.HEALTHY));
        other.applyTarget("b", definition("b", "web", 2));
        other.update();
        other.applyTarget("a", definition("a", "web", 1));

        assertThat(other.update().state().group("web").orElseThrow().version())
                .isEqualTo(book.update().state().group("web").orElseThrow().version());
    }

    @Test
    void aMembersRegionLabelsAndWeightComeFromItsDefinition() {
        book.applyTarget("a", TargetDefinition.newBuilder(definition("a", "web", 1)).setWeight(7)
                .setRegions(List.of("eu-1", "us-1")).setLabels(Map.of("zone", "z1")).build());
        Member a = book.update().state().group("web").orElseThrow().members().get(0);
        assertThat(a.weight()).isEqualTo(7);
        assertThat(a.region()).isEqualTo("eu-1");
        assertThat(a.labels()).containsEntry("zone", "z1");
        assertThat(a.status()).isEqualTo(HealthStatus.DETECTING);
        assertThat(a.served()).isFalse();
    }

    private void define(String id, String group, int port) {
        book.applyTarget(id, definition(id, group, port));
    }

    private void health(String id, io.healthmesh.schema.HealthStatus status) {
        book.applyHealth(id, healthEvent(id, status));
    }

    private void group(String id, boolean failOpen, List<String> routable, boolean truncated) {
        book.applyGroup(id, groupEvent(id, failOpen, routable, truncated));
    }

    private static TargetDefinition definition(String id, String group, int port) {
        return TargetDefinition.newBuilder().setId(id).setGroup(group).setAddress("127.0.0.1").setPort(port)
                .setProtocol(Protocol.TCP).build();
    }

    private static TargetHealth healthEvent(String id, io.healthmesh.schema.HealthStatus status) {
        return TargetHealth.newBuilder().setTargetId(id).setGroup("g").setStatus(status).setSinceMs(1)
                .setGeneration(1).setUpdatedAtMs(1).build();
    }

    private static GroupHealth groupEvent(String id, boolean failOpen, List<String> routable, boolean truncated) {
        return GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen).setMembers(routable.size())
                .setHealthy(0).setUnhealthy(0).setDetecting(0).setDisabled(0).setRoutable(routable)
                .setRoutableTruncated(truncated).setUpdatedAtMs(1).build();
    }
}
