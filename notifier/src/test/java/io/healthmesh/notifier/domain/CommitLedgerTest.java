package io.healthmesh.notifier.domain;

import io.healthmesh.notifier.domain.Position.PartitionRef;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommitLedgerTest {

    private static final PartitionRef P = new PartitionRef("t", 2);

    private static Position at(long offset) {
        return new Position("t", 2, offset);
    }

    @Test
    void commitsUpToTheFirstHeldRecordAndNeverGoesBack() {
        CommitLedger ledger = new CommitLedger();
        ledger.assign(P, 10, true);
        assertThat(ledger.toCommit(P)).isEmpty();
        ledger.processed(at(10));
        ledger.hold(at(11));
        ledger.processed(at(11));
        ledger.hold(at(11));
        ledger.processed(at(12));
        assertThat(ledger.toCommit(P)).hasValue(11);
        ledger.committed(P, 11);
        assertThat(ledger.toCommit(P)).isEmpty();
        ledger.release(at(11));
        assertThat(ledger.toCommit(P)).as("one of two holds left").isEmpty();
        ledger.release(at(11));
        assertThat(ledger.toCommit(P)).hasValue(13);
    }

    @Test
    void aFirstStartCommitsItsFloorOnceNothingBelowIsHeld() {
        CommitLedger ledger = new CommitLedger();
        ledger.assign(P, 5, false);
        ledger.hold(at(2));
        assertThat(ledger.toCommit(P)).isEmpty();
        ledger.release(at(2));
        assertThat(ledger.toCommit(P)).hasValue(5);
    }

    @Test
    void anUntrackedPartitionIsIgnored() {
        CommitLedger ledger = new CommitLedger();
        ledger.hold(at(1));
        ledger.release(at(1));
        ledger.processed(at(1));
        assertThat(ledger.toCommit(P)).isEmpty();
        assertThat(ledger.tracks(P)).isFalse();
    }
}
