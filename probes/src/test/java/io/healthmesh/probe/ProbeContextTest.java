package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The deadline/verdict race, on an embedded event loop with frozen time: timers fire only when the test says. */
class ProbeContextTest {

    private EmbeddedChannel loopOwner;
    private ProbeContext probe;

    @BeforeEach
    void setUp() {
        loopOwner = new EmbeddedChannel();
        loopOwner.freezeTime();
        probe = new ProbeContext(Targets.tcp(9, 2000), loopOwner.eventLoop(), System.nanoTime());
        probe.armDeadline();
    }

    @Test
    void deadlineDecidesWhenNoVerdictCameAndNamesThePhase() {
        probe.phase("awaiting response");
        loopOwner.advanceTimeBy(1999, TimeUnit.MILLISECONDS);
        loopOwner.runScheduledPendingTasks();
        assertThat(probe.result()).isNotDone();
        loopOwner.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        loopOwner.runScheduledPendingTasks();
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(probe.result().join().detail()).isEqualTo("no verdict within 2000 ms (awaiting response)");
    }

    @Test
    void firstVerdictWinsClosesChannelsAndLaterOnesAreIgnored() {
        EmbeddedChannel connection = new EmbeddedChannel();
        probe.track(connection);
        probe.connected();
        probe.finish(Outcome.CONNECTION_REFUSED, "refused");
        probe.succeed("too late");
        loopOwner.advanceTimeBy(5, TimeUnit.SECONDS);
        loopOwner.runScheduledPendingTasks();
        ProbeReport report = probe.result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(report.connectMicros()).isNotNull();
        assertThat(connection.isOpen()).isFalse();
        assertThat(probe.isDone()).isTrue();
    }

    @Test
    void whatAProbeOpenedWithoutAChannelIsClosedOnceWhenItEndsHoweverItEnds() {
        AtomicInteger closed = new AtomicInteger();
        probe.closeAtEnd(closed::incrementAndGet);
        assertThat(closed).hasValue(0);
        loopOwner.advanceTimeBy(2, TimeUnit.SECONDS); // the deadline decides
        loopOwner.runScheduledPendingTasks();
        probe.succeed("too late");
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(closed).hasValue(1);

        // registered after the verdict: closed at once
        AtomicInteger late = new AtomicInteger();
        ProbeContext ended = new ProbeContext(Targets.tcp(9, 2000), loopOwner.eventLoop(), System.nanoTime());
        ended.finish(Outcome.CONNECTION_REFUSED, "refused");
        ended.closeAtEnd(late::incrementAndGet);
        assertThat(late).hasValue(1);
    }

    @Test
    void aCloserThatThrowsStillClosesTheRestAndCompletesTheReport() {
        EmbeddedChannel connection = new EmbeddedChannel();
        probe.track(connection);
        probe.closeAtEnd(() -> {
            throw new IllegalStateException("a bug in a closer");
        });

        assertThatThrownBy(() -> probe.finish(Outcome.CONNECTION_REFUSED, "refused"))
                .hasMessage("a bug in a closer");
        assertThat(probe.result()).as("the target is not left without a report").isCompleted();
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void anAbortReportsAtOnceAndClosesOnTheProbesLoop() {
        AtomicInteger closed = new AtomicInteger();
        probe.closeAtEnd(closed::incrementAndGet);

        probe.abort("probe engine closed");
        assertThat(probe.result().join().detail()).isEqualTo("internal-error: probe engine closed");
        assertThat(closed).as("not off the probe's loop").hasValue(0);
        loopOwner.runPendingTasks();
        assertThat(closed).hasValue(1);
        assertThat(probe.isDone()).isTrue();
    }

    @Test
    void aRedirectReleasesItsHopsCloserAndTheNextHopRegistersItsOwn() {
        AtomicInteger first = new AtomicInteger();
        Runnable firstHop = first::incrementAndGet;
        probe.closeAtEnd(firstHop);
        assertThatThrownBy(() -> probe.closeAtEnd(() -> { })).isInstanceOf(IllegalStateException.class);
        probe.release(firstHop);
        assertThat(first).hasValue(1);
        AtomicInteger second = new AtomicInteger();
        probe.closeAtEnd(second::incrementAndGet);
        probe.succeed("status 200");
        assertThat(first).hasValue(1); // released: not closed again at the end
        assertThat(second).hasValue(1);
    }

    @Test
    void aVerdictInsideTheConnectListenerClosesOnTheLoopsNextTurn() throws Exception {
        EmbeddedChannel connection = new EmbeddedChannel();
        probe.track(connection);
        // closing inside the connect promise's listener would make Netty build an exception with a stack trace
        probe.onConnect(f -> probe.succeed("connected")).operationComplete(connection.newSucceededFuture());
        assertThat(probe.result()).isDone();
        assertThat(connection.isOpen()).isTrue();
        loopOwner.runPendingTasks();
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void aVerdictAfterTheConnectListenerClosesAtOnce() throws Exception {
        EmbeddedChannel connection = new EmbeddedChannel();
        probe.track(connection);
        probe.onConnect(f -> probe.connected()).operationComplete(connection.newSucceededFuture());
        probe.succeed("status 200");
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void channelTrackedAfterTheVerdictIsClosedAtOnce() {
        probe.succeed("done");
        EmbeddedChannel late = new EmbeddedChannel();
        probe.track(late);
        assertThat(late.isOpen()).isFalse();
    }

    @Test
    void deadlineCanMeanSuccessForUdpPortMode() {
        probe.deadlineMeans(Outcome.SUCCESS, "no ICMP port-unreachable within 2000 ms");
        loopOwner.advanceTimeBy(2, TimeUnit.SECONDS);
        loopOwner.runScheduledPendingTasks();
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void newHopResetsThePhasesButNotTheByteCount() {
        probe.connected();
        probe.bytesRead(100);
        probe.httpStatus(302);
        probe.beginHop();
        probe.succeed("ok");
        ProbeReport report = probe.result().join();
        assertThat(report.connectMicros()).isNull();
        assertThat(report.firstByteMicros()).isNull();
        assertThat(report.httpStatus()).isNull();
        assertThat(report.bytesRead()).isEqualTo(100);
    }

    @Test
    void exceptionsAreClassified() {
        probe.fail(new java.net.ConnectException("Connection refused"));
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
        assertThat(probe.result().join().detail()).isEqualTo("ConnectException: Connection refused");
    }
}
