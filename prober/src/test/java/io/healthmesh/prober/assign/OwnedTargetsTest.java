package io.healthmesh.prober.assign;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OwnedTargetsTest {

    private final Map<String, TargetSpec> scheduled = new LinkedHashMap<>();
    private final List<String> removed = new ArrayList<>();
    private final OwnedTargets owned = new OwnedTargets("eu", TargetSink.of(s -> scheduled.put(s.id(), s), id -> {
        removed.add(id);
        scheduled.remove(id);
    }));
    private final TopicPartition p0 = new TopicPartition("t", 0);
    private final TopicPartition p1 = new TopicPartition("t", 1);

    private static TargetSpec spec(String id) {
        return TargetSpec.of(id, "g", "127.0.0.1", 80, Protocol.TCP);
    }

    @Test
    void enabledTargetForThisRegionIsScheduledAndUpdatesReachTheScheduler() {
        owned.apply(p0, "a", spec("a"));
        owned.apply(p0, "a", spec("a").withThresholds(2, 2));

        assertThat(scheduled.get("a").healthyThreshold()).isEqualTo(2);
        assertThat(owned.count()).isEqualTo(1);
    }

    @Test
    void disabledTargetIsNotProbedAndStopsWhenDisabled() {
        owned.apply(p0, "a", spec("a"));
        owned.apply(p0, "a", spec("a").withEnabled(false));
        owned.apply(p0, "b", spec("b").withEnabled(false));

        assertThat(scheduled).isEmpty();
        assertThat(removed).containsExactly("a");
        assertThat(owned.count()).isZero();
    }

    @Test
    void targetForOtherRegionsIsNotProbedHere() {
        owned.apply(p0, "us-only", spec("us-only").withRegions(List.of("us"), QuorumPolicy.ANY, 1));
        owned.apply(p0, "eu-and-us", spec("eu-and-us").withRegions(List.of("us", "eu"), QuorumPolicy.ALL, 1));
        owned.apply(p0, "everywhere", spec("everywhere"));

        assertThat(scheduled).containsOnlyKeys("eu-and-us", "everywhere");
    }

    @Test
    void targetMovedAwayFromThisRegionStops() {
        owned.apply(p0, "a", spec("a"));
        owned.apply(p0, "a", spec("a").withRegions(List.of("us"), QuorumPolicy.ANY, 1));

        assertThat(scheduled).isEmpty();
        assertThat(owned.count()).isZero();
    }

    @Test
    void tombstoneOfAnUnknownTargetDoesNothing() {
        owned.apply(p0, "ghost", null);

        assertThat(removed).isEmpty();
        assertThat(owned.count()).isZero();
    }

    @Test
    void releasingPartitionsStopsExactlyTheirTargets() {
        owned.apply(p0, "a", spec("a"));
        owned.apply(p0, "b", spec("b"));
        owned.apply(p1, "c", spec("c"));

        owned.release(List.of(p0));

        assertThat(scheduled).containsOnlyKeys("c");
        assertThat(removed).containsExactlyInAnyOrder("a", "b");
        assertThat(owned.count()).isEqualTo(1);

        owned.releaseAll();
        assertThat(scheduled).isEmpty();
        assertThat(owned.count()).isZero();
    }
}
