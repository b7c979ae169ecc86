package io.healthmesh.replay;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.healthmesh.core.health.HealthStatus.DETECTING;
import static io.healthmesh.core.health.HealthStatus.DISABLED;
import static io.healthmesh.core.health.HealthStatus.HEALTHY;
import static io.healthmesh.core.health.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

class ReplayReportTest {

    /**
     * Members that join, change, move to another group and leave: each group is fail-open while it has members and
     * none is HEALTHY or DISABLED, counted from the start of the window (or the change) to its end (or the change).
     */
    @Test
    void failOpenTimeFollowsMembersThatJoinMoveAndLeave() {
        Map<String, StartState> starts = Map.of(
                "a", new StartState("g1", HEALTHY),
                "b", new StartState("g1", UNHEALTHY),
                "c", new StartState("g2", UNHEALTHY),
                "d", new StartState(null, null));
        Map<String, List<StatusChange>> changes = Map.of(
                "a", List.of(change("a", "g1", HEALTHY, UNHEALTHY, 2_000), change("a", "g1", UNHEALTHY, null, 6_000)),
                "d", List.of(change("d", "g2", null, HEALTHY, 3_000), change("d", "g2", HEALTHY, null, 5_000)),
                "b", List.of(change("b", "g2", UNHEALTHY, DETECTING, 4_000),
                        change("b", "g2", DETECTING, HEALTHY, 12_000)),
                "c", List.of(change("c", "g2", UNHEALTHY, HEALTHY, 7_000), change("c", "g2", HEALTHY, UNHEALTHY, 9_000)),
                "e", List.of(change("e", "g3", null, DISABLED, 8_000)));

        Map<String, Long> failOpen = ReplayReport.failOpen(starts, changes, new ReplayWindow(1_000, 1_000, 10_000),
                g -> PanicThreshold.NONE);

        // g1: open when its last HEALTHY member goes down (2 s) until it is empty (6 s), moving b out changes nothing
        // g2: open from the window's start until d joins HEALTHY (1-3 s), from d leaving until c recovers (5-7 s),
        //     and from c going down (9 s) to the window's end (10 s; b's later recovery is clamped to it)
        // g3: its one member is DISABLED, routable: never open
        assertThat(failOpen).containsExactly(Map.entry("g1", 4_000L), Map.entry("g2", 5_000L), Map.entry("g3", 0L));
    }

    @Test
    void aGroupOpenAtTheStartOfAReplayFromTheBeginningCountsFromItsFirstChange() {
        Map<String, StartState> starts = Map.of("a", new StartState("g", DETECTING));
        Map<String, List<StatusChange>> changes = Map.of(
                "a", List.of(change("a", "g", DETECTING, HEALTHY, 3_000)),
                "b", List.of(change("b", "h", null, UNHEALTHY, 1_000)));

        Map<String, Long> failOpen = ReplayReport.failOpen(starts, changes,
                new ReplayWindow(Long.MIN_VALUE, Long.MIN_VALUE, 5_000), g -> PanicThreshold.NONE);

        assertThat(failOpen).containsExactly(Map.entry("g", 2_000L), Map.entry("h", 4_000L));
    }

    /**
     * With a panic threshold the group is open below it and, once open, until it is back at the threshold plus the
     * margin: the same rule and hysteresis as the aggregator ({@code replay --panic 50%}, margin 10).
     */
    @Test
    void aPanicThresholdOpensTheGroupBelowItAndKeepsItOpenWithinTheMargin() {
        Map<String, StartState> starts = Map.of(
                "a", new StartState("g", HEALTHY), "b", new StartState("g", HEALTHY),
                "c", new StartState("g", HEALTHY), "d", new StartState("g", UNHEALTHY));
        Map<String, List<StatusChange>> changes = Map.of(
                "a", List.of(change("a", "g", HEALTHY, UNHEALTHY, 2_000), change("a", "g", UNHEALTHY, HEALTHY, 6_000)),
                "b", List.of(change("b", "g", HEALTHY, UNHEALTHY, 3_000), change("b", "g", UNHEALTHY, HEALTHY, 4_000)));
        ReplayWindow window = new ReplayWindow(1_000, 1_000, 10_000);
        PanicThreshold half = new PanicThreshold(50, null, 10, 0);

        // 3 of 4, then 2 of 4 (50 %: not below) at 2 s, 1 of 4 at 3 s: open; 2 of 4 at 4 s is within the margin;
        // 3 of 4 at 6 s (75 % >= 60 %) closes it
        assertThat(ReplayReport.failOpen(starts, changes, window, g -> half)).containsExactly(Map.entry("g", 3_000L));
        assertThat(ReplayReport.failOpen(starts, changes, window, g -> PanicThreshold.NONE))
                .containsExactly(Map.entry("g", 0L));
        GroupThresholds whatIf = new GroupThresholds(Map.of(), half);
        assertThat(whatIf.configured("g")).isEqualTo(PanicThreshold.NONE);
        assertThat(whatIf.alternative("g")).isEqualTo(half);
        GroupThresholds recorded = new GroupThresholds(Map.of("g", half), null);
        assertThat(recorded.alternative("g")).isEqualTo(half);
    }

    private static StatusChange change(String id, String group, HealthStatus from, HealthStatus to, long atMs) {
        return new StatusChange(id, group, from, to, atMs);
    }
}
