package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pages of a group's rows, as the query API reads them: cursors, limits, the routable index and fail-open. */
class RoutableListTest {

    @TempDir
    Path stateDir;
    private AggregatorDriver d;
    private KeyValueStore<Bytes, byte[]> rows;

    @BeforeEach
    void start() {
        d = new AggregatorDriver(stateDir);
        rows = d.driver.getKeyValueStore(AggregatorTopology.GROUP_MEMBERS_STORE);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    private static TargetSpec member(int i, String group) {
        return TargetSpec.of(String.format("m%03d", i), group, "10.0.0.1", 80, Protocol.TCP).withThresholds(1, 1);
    }

    private List<String> allPages(String group, boolean failOpen, int limit) {
        List<String> all = new ArrayList<>();
        String after = null;
        do {
            RoutableList.Page page = RoutableList.routable(rows, group, failOpen, after, limit);
            assertThat(page.ids().size()).isLessThanOrEqualTo(limit);
            all.addAll(page.ids());
            after = page.next();
        } while (after != null);
        return all;
    }

    @Test
    void pagesWalkEveryMemberOnceInOrderAndOnlyThisGroupsRows() {
        d.at(0);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            d.define(member(i, "g"));
            expected.add(String.format("m%03d", i));
        }
        // a group whose id is a prefix of the other's, and one sorting right after it: never mixed in
        d.define(TargetSpec.of("x1", "gg", "10.0.0.1", 80, Protocol.TCP));
        d.define(TargetSpec.of("x2", "f", "10.0.0.1", 80, Protocol.TCP));
        assertThat(allPages("g", true, 5)).isEqualTo(expected);
        assertThat(allPages("g", true, 23)).isEqualTo(expected);
        assertThat(RoutableList.routable(rows, "g", true, null, 23).next()).isNull();
        assertThat(RoutableList.routable(rows, "g", false, null, 10).ids()).as("nobody healthy yet").isEmpty();
        RoutableList.Page members = RoutableList.members(rows, "g", "m020", 10);
        assertThat(members.ids()).containsExactly("m021", "m022");
        assertThat(members.statuses()).containsOnly(HealthStatus.DETECTING);
        assertThat(RoutableList.routable(rows, "nobody", true, null, 10).ids()).isEmpty();
    }

    @Test
    void theRoutableIndexFollowsStatusChanges() {
        d.at(0);
        for (int i = 0; i < 10; i++) {
            d.define(member(i, "g"));
        }
        d.at(1);
        for (int i : new int[] {7, 2, 9, 4}) {
            d.result(member(i, "g"), "default", Outcome.SUCCESS, 5);
        }
        assertThat(allPages("g", false, 3)).containsExactly("m002", "m004", "m007", "m009");
        d.at(2).result(member(4, "g"), "default", Outcome.TIMEOUT, 5);
        d.delete("m009");
        assertThat(allPages("g", false, 3)).containsExactly("m002", "m007");
        assertThat(RoutableList.members(rows, "g", null, 100).ids()).hasSize(9).doesNotContain("m009");
    }

    @Test
    void aPageIsAtLeastOneId() {
        assertThatThrownBy(() -> new RoutableList(0)).hasMessage("maxIds: 0 (expected: at least 1)");
    }
}
