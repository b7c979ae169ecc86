package io.healthmesh.cli.watch;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.QuorumPolicy;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one-line renderings of state events. */
class StateLinesTest {

    private static final long T0 = 1_700_000_000_000L; // 22:13:20 UTC
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(T0 + 5_000), ZoneOffset.UTC);
    private final StateLines text = new StateLines(CLOCK, false);
    private final StateLines json = new StateLines(CLOCK, true);

    static TargetHealth health(HealthStatus previous, HealthStatus now, ProbeOutcome reason, boolean stale,
                               List<RegionHealth> regions) {
        return TargetHealth.newBuilder().setTargetId("web-1").setGroup("pool").setStatus(now)
                .setPreviousStatus(previous).setSinceMs(T0 - 60_000).setReason(reason).setReasonDetail(null)
                .setConsecutiveSuccesses(3).setConsecutiveFailures(0).setGeneration(42L).setLatencyMicros(1200L)
                .setStale(stale).setLastResultAtMs(T0).setUpdatedAtMs(T0).setQuorum(QuorumPolicy.MAJORITY)
                .setRegions(regions).build();
    }

    static GroupHealth group(boolean failOpen, List<String> routable, int members) {
        return GroupHealth.newBuilder().setGroupId("pool").setFailOpen(failOpen).setMembers(members)
                .setHealthy(failOpen ? 0 : routable.size()).setUnhealthy(failOpen ? members : members - routable.size())
                .setDetecting(0).setDisabled(0).setRoutable(routable).setUpdatedAtMs(T0).build();
    }

    @Test
    void aChangeShowsOldArrowNewAndTheReasonDatedWhenTheTargetChanged() {
        String line = text.render(new StateEvent.Target(
                health(HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of()), null, false));
        // sinceMs (22:12:20), not updatedAtMs (22:13:20): an aggregator catching up writes events late
        assertThat(line).isEqualTo("22:12:20.000  target web-1                 group pool              "
                + "DETECTING -> HEALTHY  reason SUCCESS");
    }

    @Test
    void theStateFoundAtStartIsMarkedCurrent() {
        String line = text.render(new StateEvent.Target(
                health(HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of()), null, true));
        assertThat(line).contains("= HEALTHY (current, since 22:12:20.000)");
    }

    @Test
    void staleAndResumedAreSaid() {
        assertThat(text.render(new StateEvent.Target(
                health(HealthStatus.HEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, true, List.of()), null, false)))
                .contains("HEALTHY  reason SUCCESS  STALE (no recent results; status kept)");
        TargetHealth wasStale = health(HealthStatus.HEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, true, List.of());
        assertThat(text.render(new StateEvent.Target(
                health(HealthStatus.HEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of()), wasStale,
                false)))
                .startsWith("22:13:20.000").contains("fresh (results resumed)");
    }

    @Test
    void aSameStatusEventSaysWhatChangedAccordingToThePreviousOne() {
        TargetHealth before = health(HealthStatus.HEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of());
        TargetHealth moved = TargetHealth.newBuilder(before).setGroup("pool-2").build();
        TargetHealth reconfigured = TargetHealth.newBuilder(before).setGeneration(43L).build();

        assertThat(text.render(new StateEvent.Target(moved, before, false))).endsWith("moved from group pool");
        assertThat(text.render(new StateEvent.Target(reconfigured, before, false)))
                .endsWith("re-configured (new probe definition)");
        assertThat(text.render(new StateEvent.Target(before, null, false))).doesNotContain("fresh");
    }

    @Test
    void regionsAreBrokenDownWhenThereIsMoreThanOne() {
        List<RegionHealth> regions = List.of(
                RegionHealth.newBuilder().setRegion("eu").setStatus(HealthStatus.HEALTHY).build(),
                RegionHealth.newBuilder().setRegion("us").setStatus(HealthStatus.UNHEALTHY).setStale(true).build());
        assertThat(text.render(new StateEvent.Target(
                health(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, regions), null, false)))
                .endsWith("regions eu=HEALTHY us=UNHEALTHY(stale) quorum MAJORITY");
        assertThat(text.render(new StateEvent.Target(
                health(HealthStatus.UNHEALTHY, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, regions.subList(0, 1)), null,
                false))).doesNotContain("regions");
    }

    @Test
    void groupLinesShowFailOpenAndTheRoutableSet() {
        String line = text.render(new StateEvent.Group(group(true, List.of("a", "b"), 2),
                group(false, List.of("a"), 2), false));
        assertThat(line).isEqualTo("22:13:20.000  group  pool                  failOpen false -> true  routable 2/2 [a, b]"
                + "  healthy 0, unhealthy 2, detecting 0, disabled 0  FAIL-OPEN: no member healthy, every member routable");
    }

    @Test
    void jsonLinesCarryEveryFieldAndTheKind() {
        String line = json.render(new StateEvent.Target(
                health(HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of()), null, false));
        assertThat(line).startsWith("{\"targetId\":\"web-1\",\"group\":\"pool\",\"status\":\"HEALTHY\","
                + "\"previousStatus\":\"DETECTING\"").contains("\"kind\":\"target\"", "\"current\":false");
        assertThat(json.render(new StateEvent.Group(group(true, List.of("a"), 1), null, true)))
                .contains("\"failOpen\":true", "\"routable\":[\"a\"]", "\"kind\":\"group\"", "\"current\":true");
        assertThat(json.render(new StateEvent.CaughtUp(1, 1))).isNull();
    }

    @Test
    void removalsAreStampedWithTheClock() {
        assertThat(text.render(new StateEvent.Removed(StateEvent.Kind.TARGET, "web-1", false)))
                .isEqualTo("22:13:25.000  target web-1  removed");
        assertThat(json.render(new StateEvent.Removed(StateEvent.Kind.GROUP, "pool", false)))
                .isEqualTo("{\"kind\":\"groupRemoved\",\"id\":\"pool\",\"current\":false}");
    }

    @Test
    void filterKeepsTheAskedGroupAndTarget() {
        StateEvent target = new StateEvent.Target(
                health(HealthStatus.DETECTING, HealthStatus.HEALTHY, ProbeOutcome.SUCCESS, false, List.of()), null, false);
        StateEvent groupEvent = new StateEvent.Group(group(false, List.of("a"), 1), null, false);
        assertThat(WatchCommand.filter(null, null).test(target)).isTrue();
        assertThat(WatchCommand.filter(List.of("pool"), null).test(groupEvent)).isTrue();
        assertThat(WatchCommand.filter(List.of("other"), null).test(target)).isFalse();
        assertThat(WatchCommand.filter(null, List.of("web-1")).test(target)).isTrue();
        assertThat(WatchCommand.filter(null, List.of("web-1")).test(groupEvent)).isFalse();
        assertThat(WatchCommand.filter(null, List.of("web-2")).test(target)).isFalse();
    }
}
