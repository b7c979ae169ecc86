package io.healthmesh.replay;

import io.healthmesh.core.maintenance.MaintenanceMode;
import io.healthmesh.core.maintenance.MaintenanceSelector;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceCheckTest {

    private static final Map<String, List<MaintenanceCheck.Membership>> MEMBERS = Map.of(
            "a", List.of(new MaintenanceCheck.Membership(0, "web", Map.of("zone", "z1"))),
            "b", List.of(new MaintenanceCheck.Membership(0, "db", Map.of("zone", "z2"))));

    private static MaintenanceWindow window(String id, MaintenanceSelector selector, long startMs, long endMs) {
        return new MaintenanceWindow(id, selector, MaintenanceMode.DRAIN, startMs, endMs, "test", 0, null);
    }

    private static final List<MaintenanceCheck.WindowRecord> WEB_10_TO_20 = List.of(
            new MaintenanceCheck.WindowRecord(5_000, "w1", window("w1", MaintenanceSelector.group("web"), 10_000,
                    20_000)));

    @Test
    void eventsCarryingTheWindowInForceMatch() {
        MaintenanceCheck.Result r = MaintenanceCheck.compare(WEB_10_TO_20, MEMBERS, List.of(
                new MaintenanceCheck.Mark("a", 1, 9_999, null),
                new MaintenanceCheck.Mark("a", 2, 10_000, "w1"),
                new MaintenanceCheck.Mark("b", 3, 15_000, null),
                new MaintenanceCheck.Mark("a", 4, 20_000, null)), 0);

        assertThat(r.events()).isEqualTo(4);
        assertThat(r.mismatches()).isEmpty();
    }

    @Test
    void anEventWithoutTheWindowInForceIsAMismatch() {
        MaintenanceCheck.Result r = MaintenanceCheck.compare(WEB_10_TO_20, MEMBERS, List.of(
                new MaintenanceCheck.Mark("a", 7, 12_000, null),
                new MaintenanceCheck.Mark("b", 8, 12_000, "w1")), 1_000);

        assertThat(r.mismatches()).containsExactly(
                "a: maintenance: event at 1970-01-01T00:00:12Z (offset 7) carries no window, the windows recorded "
                        + "then put window w1 in force (within 1000 ms)",
                "b: maintenance: event at 1970-01-01T00:00:12Z (offset 8) carries window w1, the windows recorded "
                        + "then put no window in force (within 1000 ms)");
    }

    @Test
    void aTombstoneEndsAWindowMidRangeWithinTheTolerance() {
        List<MaintenanceCheck.WindowRecord> records = new java.util.ArrayList<>(WEB_10_TO_20);
        records.add(new MaintenanceCheck.WindowRecord(14_000, "w1", null));
        List<MaintenanceCheck.Mark> marks = List.of(
                new MaintenanceCheck.Mark("a", 1, 13_999, "w1"),
                // the aggregator read the tombstone 500 ms after its timestamp: still in force at 14.2 s
                new MaintenanceCheck.Mark("a", 2, 14_200, "w1"),
                new MaintenanceCheck.Mark("a", 3, 15_500, null));

        assertThat(MaintenanceCheck.compare(records, MEMBERS, marks, 1_000).mismatches()).isEmpty();
        assertThat(MaintenanceCheck.compare(records, MEMBERS, marks, 0).mismatches()).singleElement()
                .asString().startsWith("a: maintenance: event at 1970-01-01T00:00:14.200Z (offset 2) carries window w1");
    }

    @Test
    void theLabelsAndGroupAreThoseOfTheDefinitionInForce() {
        List<MaintenanceCheck.WindowRecord> records = List.of(new MaintenanceCheck.WindowRecord(0, "z",
                window("z", MaintenanceSelector.labels(Map.of("zone", "z1")), 0, 100_000)));
        Map<String, List<MaintenanceCheck.Membership>> moved = Map.of("a", List.of(
                new MaintenanceCheck.Membership(0, "web", Map.of("zone", "z1")),
                new MaintenanceCheck.Membership(50_000, "web", Map.of("zone", "z2"))));

        MaintenanceCheck.Result r = MaintenanceCheck.compare(records, moved, List.of(
                new MaintenanceCheck.Mark("a", 1, 40_000, "z"),
                new MaintenanceCheck.Mark("a", 2, 60_000, null)), 0);

        assertThat(r.mismatches()).isEmpty();
    }

    @Test
    void aGroupEventMustCarryTheWindowForTheGroupAndNoWindowThatOnlyCoversItsMembers() {
        List<MaintenanceCheck.WindowRecord> records = List.of(WEB_10_TO_20.get(0),
                new MaintenanceCheck.WindowRecord(5_000, "wa", window("wa", MaintenanceSelector.target("a"), 10_000,
                        20_000)));
        MaintenanceCheck.Result ok = MaintenanceCheck.compareGroups(records, List.of(
                new MaintenanceCheck.GroupMark("web", 1, 9_000, null),
                new MaintenanceCheck.GroupMark("web", 2, 10_000, "w1"),
                new MaintenanceCheck.GroupMark("db", 3, 15_000, null)), 0);
        assertThat(ok.events()).isEqualTo(3);
        assertThat(ok.mismatches()).isEmpty();

        MaintenanceCheck.Result missing = MaintenanceCheck.compareGroups(records, List.of(
                new MaintenanceCheck.GroupMark("web", 4, 12_000, null),
                new MaintenanceCheck.GroupMark("db", 5, 12_000, "wa")), 1_000);
        assertThat(missing.mismatches()).containsExactly(
                "group db: maintenance: event at 1970-01-01T00:00:12Z (offset 5) carries window wa, the windows "
                        + "recorded then put no window in force (within 1000 ms)",
                "group web: maintenance: event at 1970-01-01T00:00:12Z (offset 4) carries no window, the windows "
                        + "recorded then put window w1 in force (within 1000 ms)");

        MaintenanceCheck.Result both = MaintenanceCheck.both(ok, missing);
        assertThat(both.events()).isEqualTo(5);
        assertThat(both.mismatches()).hasSize(2);
    }
}
