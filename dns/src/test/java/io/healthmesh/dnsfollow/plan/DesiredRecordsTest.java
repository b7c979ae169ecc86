package io.healthmesh.dnsfollow.plan;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.healthmesh.dnsfollow.plan.Views.notServed;
import static io.healthmesh.dnsfollow.plan.Views.row;
import static io.healthmesh.dnsfollow.plan.Views.served;
import static io.healthmesh.dnsfollow.plan.Views.set;
import static org.assertj.core.api.Assertions.assertThat;

class DesiredRecordsTest {

    private static FollowedState state(GroupView... groups) {
        return FollowedState.of(List.of(groups));
    }

    @Test
    void theNameHoldsTheServedMembersOnly() {
        GroupView api = GroupView.of("api", false, List.of(served("a", "10.0.0.1"),
                notServed("b", "10.0.0.2", HealthStatus.UNHEALTHY), served("c", "10.0.0.3"),
                notServed("d", "10.0.0.4", HealthStatus.DETECTING)), false);

        NameTarget t = DesiredRecords.of(state(api), row("api", "api.example.com."));

        assertThat(t.records()).isEqualTo(set("10.0.0.1", "10.0.0.3"));
        assertThat(t.groupKnown()).isTrue();
        assertThat(t.viewKeptLast()).isFalse();
    }

    @Test
    void failOpenServesEveryMemberAsTheViewSays() {
        // in fail-open the view marks every member served; the mapping takes the view's word for it
        GroupView api = GroupView.of("api", true, List.of(
                new io.healthmesh.follow.Member("a", "10.0.0.1", 1, 1, null, java.util.Map.of(), HealthStatus.UNHEALTHY,
                        true),
                new io.healthmesh.follow.Member("b", "10.0.0.2", 1, 1, null, java.util.Map.of(), HealthStatus.UNHEALTHY,
                        true)), false);

        assertThat(DesiredRecords.of(state(api), row("api", "api.example.com.")).records())
                .isEqualTo(set("10.0.0.1", "10.0.0.2"));
    }

    @Test
    void addressesAreFiledByFamilyAndTheNamesTypesFilterThem() {
        GroupView api = GroupView.of("api", false, List.of(served("a", "10.0.0.1"), served("b", "2001:db8::2"),
                served("c", "[2001:db8::3]")), false);

        NameTarget both = DesiredRecords.of(state(api), row("api", "api.example.com."));
        assertThat(both.records().addresses(RecordType.A)).containsExactly(Views.ip("10.0.0.1"));
        assertThat(both.records().addresses(RecordType.AAAA))
                .containsExactly(Views.ip("2001:db8::2"), Views.ip("2001:db8::3"));

        NameTarget v4 = DesiredRecords.of(state(api), row("api", "api.example.com.", RecordType.A));
        assertThat(v4.records()).isEqualTo(set("10.0.0.1"));
        assertThat(v4.otherFamily()).containsExactly("b", "c");
    }

    @Test
    void aMemberWhoseAddressIsAHostNameIsLeftOutAndNamed() {
        GroupView api = GroupView.of("api", false, List.of(served("a", "10.0.0.1"), served("b", "api-2.internal"),
                served("c", "fe80::1%eth0")), false);

        NameTarget t = DesiredRecords.of(state(api), row("api", "api.example.com."));

        assertThat(t.records()).isEqualTo(set("10.0.0.1"));
        assertThat(t.hostNames()).containsExactly("b", "c");
    }

    @Test
    void anUnknownGroupGivesAnEmptyTargetMarkedUnknown() {
        NameTarget t = DesiredRecords.of(FollowedState.EMPTY, row("api", "api.example.com."));

        assertThat(t.records().isEmpty()).isTrue();
        assertThat(t.groupKnown()).isFalse();
    }

    @Test
    void aViewThatKeptItsLastServedSetSaysSo() {
        GroupView api = GroupView.of("api", false, List.of(served("a", "10.0.0.1")), true);

        NameTarget t = DesiredRecords.of(state(api), row("api", "api.example.com."));

        assertThat(t.records()).isEqualTo(set("10.0.0.1"));
        assertThat(t.viewKeptLast()).isTrue();
    }

    @Test
    void everyRowIsPlannedInMappingOrder() {
        GroupView api = GroupView.of("api", false, List.of(served("a", "10.0.0.1")), false);
        GroupView web = GroupView.of("web", false, List.of(served("w", "10.1.0.1")), false);
        List<NameMapping> rows = List.of(row("web", "www.example.com."), row("api", "api.example.com."));

        List<NameTarget> targets = DesiredRecords.of(state(api, web), rows);

        assertThat(targets).extracting(t -> t.mapping().name()).containsExactly("www.example.com.", "api.example.com.");
        assertThat(targets).extracting(NameTarget::records).containsExactly(set("10.1.0.1"), set("10.0.0.1"));
    }
}
