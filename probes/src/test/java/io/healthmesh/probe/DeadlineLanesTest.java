package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Deadlines kept in lanes per timeout, on an embedded event loop with frozen time: timers fire when the test says. */
class DeadlineLanesTest {

    private EmbeddedChannel loopOwner;
    private DeadlineLanes lanes;

    @BeforeEach
    void setUp() {
        loopOwner = new EmbeddedChannel();
        loopOwner.freezeTime();
        lanes = new DeadlineLanes(loopOwner.eventLoop());
    }

    private ProbeContext probe(int timeoutMs) {
        ProbeContext probe = new ProbeContext(Targets.tcp(9, timeoutMs), loopOwner.eventLoop(), System.nanoTime(),
                LoopWatch.Stalls.NONE, Long.MAX_VALUE, lanes);
        probe.armDeadline();
        return probe;
    }

    private void advanceMs(long ms) {
        loopOwner.advanceTimeBy(ms, TimeUnit.MILLISECONDS);
        loopOwner.runScheduledPendingTasks();
    }

    @Test
    void everyProbeExpiresAtItsOwnDeadlineWhateverItsLane() {
        ProbeContext a = probe(100);
        advanceMs(30);
        ProbeContext b = probe(100);
        ProbeContext c = probe(50);   // its own lane, due before both

        advanceMs(49);   // t = 79
        assertThat(c.isDone()).isFalse();
        advanceMs(1);    // t = 80
        assertThat(c.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(c.result().join().detail()).isEqualTo("no verdict within 50 ms (starting)");
        advanceMs(19);   // t = 99
        assertThat(a.isDone()).isFalse();
        advanceMs(1);    // t = 100
        assertThat(a.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(b.isDone()).isFalse();
        advanceMs(29);   // t = 129
        assertThat(b.isDone()).isFalse();
        advanceMs(1);    // t = 130
        assertThat(b.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(lanes.queued()).isZero();
    }

    @Test
    void aProbeThatEndsFirstNeverExpiresAndLeavesNothingQueued() {
        ProbeContext a = probe(100);
        ProbeContext b = probe(100);
        a.succeed("connected");
        b.finish(Outcome.CONNECTION_REFUSED, "refused");
        assertThat(lanes.queued()).isZero();

        advanceMs(500);
        assertThat(a.result().join().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(b.result().join().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
    }

    @Test
    void anEndedProbeBehindAnOpenOneLeavesWithItAndTheOpenOneStillExpires() {
        ProbeContext open = probe(100);
        advanceMs(10);
        ProbeContext ended = probe(100);
        ended.succeed("connected");
        assertThat(lanes.queued()).as("behind a probe still open").isEqualTo(2);

        advanceMs(90);
        assertThat(open.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(ended.result().join().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(lanes.queued()).isZero();
    }

    @Test
    void aLaneThatRanEmptyArmsItselfAgainForTheNextProbe() {
        ProbeContext first = probe(100);
        advanceMs(100);
        assertThat(first.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        advanceMs(250);

        ProbeContext next = probe(100);
        advanceMs(99);
        assertThat(next.isDone()).isFalse();
        advanceMs(1);
        assertThat(next.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void aDeadlineThatFailsDoesNotStopTheOthersInItsLane() {
        ProbeContext failing = probe(100);
        failing.closeAtEnd(() -> {
            throw new IllegalStateException("a closer that throws");
        });
        ProbeContext next = probe(100);
        advanceMs(100);
        assertThat(next.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(lanes.queued()).isZero();
    }
}
