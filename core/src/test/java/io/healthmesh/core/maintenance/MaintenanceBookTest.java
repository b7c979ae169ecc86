package io.healthmesh.core.maintenance;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceBookTest {

    private static MaintenanceWindow window(String id, MaintenanceSelector s, MaintenanceMode mode, long start,
                                            long end) {
        return new MaintenanceWindow(id, s, mode, start, end, "work", 0, null);
    }

    @Test
    void aWindowIsInForceFromItsStartUntilJustBeforeItsEnd() {
        MaintenanceBook book = MaintenanceBook.of(List.of(
                window("m", MaintenanceSelector.target("t"), MaintenanceMode.DRAIN, 100, 200)));
        assertThat(book.inForce("t", "g", Map.of(), 99)).isNull();
        assertThat(book.inForce("t", "g", Map.of(), 100).id()).isEqualTo("m");
        assertThat(book.inForce("t", "g", Map.of(), 199).id()).isEqualTo("m");
        assertThat(book.inForce("t", "g", Map.of(), 200)).isNull();
        assertThat(book.inForce("other", "g", Map.of(), 150)).isNull();
    }

    @Test
    void aGroupWindowCoversWhicheverTargetIsInTheGroupWhenAsked() {
        MaintenanceBook book = MaintenanceBook.of(List.of(
                window("m", MaintenanceSelector.group("web"), MaintenanceMode.SILENCE, 0, 1_000)));
        assertThat(book.inForce("a", "web", Map.of(), 10)).isNotNull();
        assertThat(book.inForce("a", "db", Map.of(), 10)).isNull(); // moved out of the group
    }

    @Test
    void onlyAGroupsOwnWindowsCoverTheGroupWithTheSamePrecedence() {
        MaintenanceBook book = MaintenanceBook.of(List.of(
                window("s-long", MaintenanceSelector.group("g"), MaintenanceMode.SILENCE, 0, 5_000),
                window("s-b", MaintenanceSelector.group("g"), MaintenanceMode.SILENCE, 0, 5_000),
                window("d-short", MaintenanceSelector.group("g"), MaintenanceMode.DRAIN, 100, 1_000),
                window("d-target", MaintenanceSelector.target("g"), MaintenanceMode.DRAIN, 0, 9_000),
                window("d-labels", MaintenanceSelector.labels(Map.of("k", "v")), MaintenanceMode.DRAIN, 0, 9_000),
                window("d-other", MaintenanceSelector.group("h"), MaintenanceMode.DRAIN, 0, 9_000)));
        assertThat(book.inForceForGroup("g", 50).id()).as("equal ends: the smallest id").isEqualTo("s-b");
        assertThat(book.inForceForGroup("g", 500).id()).as("a DRAIN first").isEqualTo("d-short");
        assertThat(book.inForceForGroup("g", 1_000).id()).isEqualTo("s-b");
        assertThat(book.inForceForGroup("g", 5_000)).as("target and label windows do not cover the group").isNull();
        assertThat(book.inForceForGroup("h", 5_000).id()).isEqualTo("d-other");
        assertThat(book.inForceForGroup("none", 500)).isNull();
    }

    @Test
    void aLabelWindowNeedsEveryLabelWithItsValue() {
        MaintenanceBook book = MaintenanceBook.of(List.of(window("m",
                MaintenanceSelector.labels(Map.of("rack", "r1", "env", "prod")), MaintenanceMode.DRAIN, 0, 1_000)));
        assertThat(book.inForce("a", "g", Map.of("rack", "r1", "env", "prod", "x", "y"), 10)).isNotNull();
        assertThat(book.inForce("a", "g", Map.of("rack", "r1"), 10)).isNull();
        assertThat(book.inForce("a", "g", Map.of("rack", "r2", "env", "prod"), 10)).isNull();
    }

    @Test
    void overlappingWindowsDrainBeforeSilenceThenTheLatestEndThenTheSmallestId() {
        MaintenanceBook book = MaintenanceBook.of(List.of(
                window("s-long", MaintenanceSelector.group("g"), MaintenanceMode.SILENCE, 0, 5_000),
                window("d-short", MaintenanceSelector.target("t"), MaintenanceMode.DRAIN, 100, 1_000),
                window("d-b", MaintenanceSelector.labels(Map.of("k", "v")), MaintenanceMode.DRAIN, 100, 2_000),
                window("d-a", MaintenanceSelector.group("g"), MaintenanceMode.DRAIN, 100, 2_000)));
        Map<String, String> labels = Map.of("k", "v");
        assertThat(book.inForce("t", "g", labels, 50).id()).isEqualTo("s-long");
        assertThat(book.inForce("t", "g", labels, 500).id()).isEqualTo("d-a");
        assertThat(book.inForce("t", "g", Map.of(), 500).id()).isEqualTo("d-a");
        assertThat(book.inForce("t", "g", labels, 2_500).id()).isEqualTo("s-long");
        assertThat(book.without("d-a").inForce("t", "g", labels, 500).id()).isEqualTo("d-b");
    }

    @Test
    void boundariesAreEveryStartAndEndInOrder() {
        MaintenanceBook book = MaintenanceBook.of(List.of(
                window("a", MaintenanceSelector.target("t"), MaintenanceMode.DRAIN, 100, 300),
                window("b", MaintenanceSelector.target("t"), MaintenanceMode.DRAIN, 200, 300)));
        assertThat(book.nextBoundaryAfter(0)).isEqualTo(100);
        assertThat(book.nextBoundaryAfter(100)).isEqualTo(200);
        assertThat(book.nextBoundaryAfter(250)).isEqualTo(300);
        assertThat(book.nextBoundaryAfter(300)).isEqualTo(Long.MAX_VALUE);
        assertThat(book.crossesBoundary(100, 199)).isFalse();
        assertThat(book.crossesBoundary(100, 200)).isTrue();
        assertThat(MaintenanceBook.EMPTY.nextBoundaryAfter(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aReplacedWindowTakesTheOldOnesPlace() {
        MaintenanceWindow w = window("m", MaintenanceSelector.target("t"), MaintenanceMode.DRAIN, 0, 1_000);
        MaintenanceBook book = MaintenanceBook.EMPTY.with(w).with(w.endingAt(500));
        assertThat(book.size()).isEqualTo(1);
        assertThat(book.inForce("t", "g", Map.of(), 600)).isNull();
    }
}
