package io.healthmesh.status.board;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.healthmesh.status.board.BoardRows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class StatusBoardTest {

    private final StatusBoard board = new StatusBoard(3);

    @Test
    void snapshotHoldsRowsLabelsAndHistorySortedById() {
        board.putLabels("b", Map.of("env", "prod"));
        board.putTarget(row("b", "g", "HEALTHY", false));
        board.putTarget(row("a", "g", "UNHEALTHY", false));
        board.addResult("b", new LatencyPoint(1, 100, true));
        board.addResult("b", new LatencyPoint(2, 200, false));

        StatusBoard.Snapshot s = board.snapshot();

        assertThat(s.targets()).extracting(e -> e.row().id()).containsExactly("a", "b");
        assertThat(s.targets().get(1).labels()).containsEntry("env", "prod");
        assertThat(s.targets().get(1).history()).extracting(LatencyPoint::micros).containsExactly(100L, 200L);
    }

    @Test
    void historyKeepsTheLastNInTimeOrderAndIgnoresUnknownTargets() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        for (int i = 1; i <= 5; i++) {
            board.addResult("a", new LatencyPoint(i * 10, i, true));
        }
        board.addResult("a", new LatencyPoint(5, 99, true)); // older than the last: out of order, dropped
        board.addResult("nobody", new LatencyPoint(1, 1, true));

        assertThat(board.snapshot().targets().get(0).history()).extracting(LatencyPoint::micros)
                .containsExactly(3L, 4L, 5L);
        assertThat(board.snapshot().targets()).hasSize(1);
    }

    @Test
    void drainReturnsOnlyWhatChangedSinceTheLastDrain() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.putTarget(row("b", "g", "HEALTHY", false));
        board.putGroup("g", false, 2);
        StatusBoard.Delta first = board.drain();
        assertThat(first.targets()).hasSize(2);
        assertThat(first.groups()).extracting(GroupRow::id).containsExactly("g");

        board.addResult("a", new LatencyPoint(5, 42, true));
        StatusBoard.Delta latencyOnly = board.drain();
        assertThat(latencyOnly.targets()).isEmpty();
        assertThat(latencyOnly.groups()).isEmpty();
        assertThat(latencyOnly.latency()).containsOnlyKeys("a");
        assertThat(latencyOnly.seq()).isEqualTo(first.seq() + 1);

        assertThat(board.drain().isEmpty()).isTrue();

        board.putTarget(row("b", "g", "UNHEALTHY", false));
        board.removeTarget("a");
        StatusBoard.Delta flip = board.drain();
        assertThat(flip.targets()).extracting(e -> e.row().status()).containsExactly("UNHEALTHY");
        assertThat(flip.removedTargets()).containsExactly("a");
        assertThat(flip.groups()).singleElement().satisfies(g -> {
            assertThat(g.members()).isEqualTo(1);
            assertThat(g.unhealthy()).isEqualTo(1);
            assertThat(g.healthy()).isZero();
        });
    }

    @Test
    void discardedChangesAreNotSentAndEveryGroupIsSentAgainAfterwards() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.putGroup("g", false, 1);
        board.drain();
        board.putTarget(row("a", "g", "UNHEALTHY", false));
        board.addResult("a", new LatencyPoint(5, 42, false));

        board.discardChanges();   // nobody watched these

        StatusBoard.Delta next = board.drain();
        assertThat(next.targets()).isEmpty();
        assertThat(next.latency()).isEmpty();
        // a browser connected meanwhile got a snapshot; the groups go out again so that none can be left stale
        assertThat(next.groups()).extracting(GroupRow::id).containsExactly("g");
        assertThat(board.snapshot().targets()).singleElement()
                .satisfies(e -> assertThat(e.row().status()).isEqualTo("UNHEALTHY"));
    }

    @Test
    void aChangedRowCarriesItsHistorySoPendingPointsAreNotSentTwice() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.drain();
        board.addResult("a", new LatencyPoint(1, 1, true));
        board.putTarget(row("a", "g", "UNHEALTHY", false));
        board.addResult("a", new LatencyPoint(2, 2, false));

        StatusBoard.Delta d = board.drain();

        assertThat(d.latency()).isEmpty();
        assertThat(d.targets().get(0).history()).extracting(LatencyPoint::micros).containsExactly(1L, 2L);
    }

    @Test
    void groupsCombineTheGroupEventWithCountsFromTheTargets() {
        board.putTarget(row("a", "web", "UNHEALTHY", false));
        board.putTarget(row("b", "web", "DETECTING", true));
        board.putTarget(row("c", "db", "DISABLED", false));
        board.putGroup("web", true, 2);
        board.putGroup("empty", false, 0);

        assertThat(board.groups()).containsExactly(
                new GroupRow("db", null, 0, 1, 0, 0, 0, 1, 0),
                new GroupRow("empty", false, 0, 0, 0, 0, 0, 0, 0),
                new GroupRow("web", true, 2, 2, 0, 1, 1, 0, 1, "NO_HEALTHY_MEMBER"));

        board.putGroup("db", true, 1, "BELOW_MIN_HEALTHY");
        assertThat(board.groups().get(0)).isEqualTo(new GroupRow("db", true, 1, 1, 0, 0, 0, 1, 0, "BELOW_MIN_HEALTHY"));
        board.putGroup("db", false, 1, null);
        assertThat(board.groups().get(0).failOpenReason()).isNull();

        board.removeGroup("empty");
        board.drain();
        board.putGroup("web", false, 2);
        StatusBoard.Delta d = board.drain();
        assertThat(d.groups()).extracting(GroupRow::id).containsExactly("web");
    }

    @Test
    void removedGroupsAreReported() {
        board.putGroup("gone", false, 1);
        board.drain();
        board.removeGroup("gone");
        assertThat(board.drain().removedGroups()).containsExactly("gone");
    }

    @Test
    void staleRegionsAreCountedPerRegion() {
        RegionRow euStale = new RegionRow("eu", "HEALTHY", "SILENT", true, "SUCCESS", 1L);
        RegionRow us = new RegionRow("us", "HEALTHY", "HEALTHY", false, "SUCCESS", 1L);
        board.putTarget(row("a", "g", "HEALTHY", false, euStale, us));
        board.putTarget(row("b", "g", "HEALTHY", false, euStale));

        assertThat(board.staleRegions()).containsExactly(Map.entry("eu", 2));
    }

    @Test
    void labelsChangeMarksTheRowAndDeletedDefinitionsDropHistory() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.drain();
        board.putLabels("a", Map.of("team", "x"));
        assertThat(board.drain().targets()).extracting(e -> e.labels()).containsExactly(Map.of("team", "x"));
        board.putLabels("a", Map.of("team", "x"));
        assertThat(board.drain().isEmpty()).isTrue();
    }

    @Test
    void aDefinitionThatSkipsTlsVerificationShowsItAndAChangeOfItIsAChange() {
        StatusBoard board = new StatusBoard(10);
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.drain();
        board.putDefinition("a", Map.of("team", "x"), StatusBoard.TargetEntry.INSECURE_SKIP_VERIFY);
        assertThat(board.drain().targets()).extracting(StatusBoard.TargetEntry::tls)
                .containsExactly(StatusBoard.TargetEntry.INSECURE_SKIP_VERIFY);
        board.putDefinition("a", Map.of("team", "x"), null);
        assertThat(board.drain().targets()).extracting(StatusBoard.TargetEntry::tls).containsExactly((String) null);
        assertThat(board.snapshot().targets().get(0).tls()).isNull();
    }

    @Test
    void votesFollowTheStateMachinesRule() {
        assertThat(RegionRow.vote("HEALTHY", 3, 0, false)).isEqualTo("HEALTHY");
        assertThat(RegionRow.vote("HEALTHY", 0, 1, false)).isEqualTo("DETECTING");
        assertThat(RegionRow.vote("UNHEALTHY", 0, 3, false)).isEqualTo("UNHEALTHY");
        assertThat(RegionRow.vote("UNHEALTHY", 1, 0, false)).isEqualTo("DETECTING");
        assertThat(RegionRow.vote("UNHEALTHY", 0, 3, true)).isEqualTo("SILENT");
        assertThat(RegionRow.vote("DISABLED", 0, 0, false)).isEqualTo("DISABLED");
    }

    @Test
    void historySizeIsBounded() {
        assertThatThrownBy(() -> new StatusBoard(-1)).hasMessage("historySize: -1 (expected: 0..1000)");
        assertThatThrownBy(() -> new StatusBoard(1001)).hasMessage("historySize: 1001 (expected: 0..1000)");
        assertThat(new StatusBoard(1).keepsHistory()).isTrue();
    }

    @Test
    void aBoardOfHistorySizeZeroKeepsStatesButNoLatencies() {
        StatusBoard board = new StatusBoard(0);
        board.putTarget(row("t-1", "g", "HEALTHY", false));
        board.drain();
        board.addResult("t-1", new LatencyPoint(1_000, 5, true));

        assertThat(board.keepsHistory()).isFalse();
        assertThat(board.snapshot().targets()).singleElement()
                .satisfies(t -> assertThat(t.history()).isEmpty())
                .satisfies(t -> assertThat(t.row().status()).isEqualTo("HEALTHY"));
        assertThat(board.drain().isEmpty()).as("a result is no change to send").isTrue();
    }

    @Test
    void newPointsStartAfreshAfterEachDrainAndEachDiscard() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.drain();
        board.addResult("a", new LatencyPoint(1, 1, true));
        assertThat(board.drain().latency().get("a")).extracting(LatencyPoint::micros).containsExactly(1L);
        board.addResult("a", new LatencyPoint(2, 2, true));
        board.discardChanges();
        board.drain();   // collecting again (a browser connected)
        board.addResult("a", new LatencyPoint(3, 3, true));

        assertThat(board.drain().latency().get("a")).extracting(LatencyPoint::micros).containsExactly(3L);
    }

    @Test
    void aDefinitionAloneKeepsHistoryAndItsDeletionForgetsIt() {
        board.putLabels("a", Map.of("env", "prod"));
        board.addResult("a", new LatencyPoint(1, 7, true));
        board.putLabels("b", Map.of("env", "prod"));
        board.addResult("b", new LatencyPoint(1, 8, true));
        board.putLabels("b", null);   // deleted before its first state event
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.putTarget(row("b", "g", "HEALTHY", false));

        assertThat(board.snapshot().targets()).extracting(e -> e.row().id(), e -> e.history().size(),
                e -> e.labels().size()).containsExactly(tuple("a", 1, 1), tuple("b", 0, 0));
    }

    @Test
    void aTargetDeletedAndBackWithinOnePushIsSentWholeWithOnlyItsNewHistory() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.drain();
        board.addResult("a", new LatencyPoint(1, 1, true));
        board.removeTarget("a");
        board.putTarget(row("a", "g", "UNHEALTHY", false));
        board.addResult("a", new LatencyPoint(2, 2, false));

        StatusBoard.Delta d = board.drain();

        assertThat(d.removedTargets()).isEmpty();
        assertThat(d.latency()).isEmpty();
        assertThat(d.targets()).singleElement().satisfies(e -> {
            assertThat(e.row().status()).isEqualTo("UNHEALTHY");
            assertThat(e.history()).extracting(LatencyPoint::micros).containsExactly(2L);
        });
    }

    @Test
    void anUnwatchedBoardCollectsNothingUntilABrowserTakesASnapshot() {
        board.putTarget(row("a", "g", "HEALTHY", false));
        board.discardChanges();   // the push found nobody watching
        board.addResult("a", new LatencyPoint(1, 1, true));
        board.putTarget(row("b", "g", "HEALTHY", false));
        board.removeTarget("a");
        board.putTarget(row("a", "g", "UNHEALTHY", false));
        board.addResult("a", new LatencyPoint(2, 2, true));

        StatusBoard.Delta first = board.drain();   // a browser connected: the push drains, then snapshots
        assertThat(first.targets()).isEmpty();
        assertThat(first.removedTargets()).isEmpty();
        assertThat(first.latency()).isEmpty();
        assertThat(board.snapshot().targets()).extracting(e -> e.row().id(), e -> e.row().status())
                .containsExactly(tuple("a", "UNHEALTHY"), tuple("b", "HEALTHY"));

        board.addResult("a", new LatencyPoint(3, 3, true));
        board.putTarget(row("b", "g", "UNHEALTHY", false));
        StatusBoard.Delta next = board.drain();
        assertThat(next.latency().get("a")).extracting(LatencyPoint::micros).containsExactly(3L);
        assertThat(next.targets()).extracting(e -> e.row().id()).containsExactly("b");
    }
}
