package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeReport;
import io.netty.util.HashedWheelTimer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slot hand-over with real threads, as in the prober: probes start on the timer's thread and end on others.
 * The tests with the manual timer check the order of hand-overs; this one checks that none is lost when probes
 * queue for a slot on one thread while slots are freed on others ({@link ProbeScheduler#releaseSlot} skips the
 * queue when it reads it empty). A waiter left behind shows as a round that never completes: a release that no
 * longer hands its slot over fails the first round. The window in which a wrongly ordered release would strand
 * a waiter is a few instructions wide, too narrow to hit reliably here; the ordering that closes it is argued in
 * {@code releaseSlot}'s comment.
 */
class ProbeSchedulerThreadsTest {

    private static final int ROUNDS = 200;
    private static final int TARGETS_PER_ROUND = 25;

    private final HashedWheelTimer timer = new HashedWheelTimer(1, TimeUnit.MILLISECONDS);
    private final ExecutorService completer = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        timer.stop();
        completer.shutdownNow();
    }

    @Test
    @Timeout(60)
    void everyQueuedProbeGetsASlotWhenSlotsAreFreedOnOtherThreads() throws InterruptedException {
        AtomicInteger started = new AtomicInteger();
        // every probe ends on a pool thread, soon after it started, while the timer's thread goes on queueing others
        ProbeEngine engine = new ProbeEngine() {
            @Override
            public CompletableFuture<ProbeReport> probe(TargetSpec target) {
                started.incrementAndGet();
                CompletableFuture<ProbeReport> result = new CompletableFuture<>();
                completer.execute(() -> result.complete(ProbeReport.of(Outcome.SUCCESS, 1, null)));
                return result;
            }

            @Override
            public void close() {
            }
        };
        CountingListener listener = new CountingListener();
        // one slot: every L7 target of a round but the first queues, and each end hands the slot to the next
        ProbeScheduler scheduler = new ProbeScheduler(engine, listener, timer, Ticker.system(), Clock.systemUTC(),
                () -> 0.0, 1, 0.0);

        for (int round = 0; round < ROUNDS; round++) {
            int expected = (round + 1) * TARGETS_PER_ROUND;
            for (int i = 0; i < TARGETS_PER_ROUND; i++) {
                // a long interval: each target probes once in the test
                scheduler.schedule(TargetSpec.of("r" + round + "-" + i, "g", "127.0.0.1", 80, Protocol.HTTP)
                        .withTiming(600_000, 1_000));
            }
            // every result of the round, or a waiter left behind: the round never completes
            assertThat(listener.results.tryAcquire(TARGETS_PER_ROUND, 10, TimeUnit.SECONDS))
                    .as("all %d results of round %d", TARGETS_PER_ROUND, round).isTrue();
            assertThat(listener.completed.get()).as("results after round %d", round).isEqualTo(expected);
        }
        assertThat(started.get()).isEqualTo(ROUNDS * TARGETS_PER_ROUND);
        assertThat(listener.delayed.get()).isPositive();
        assertThat(scheduler.inFlight()).isZero();
        scheduler.close();
    }

    private static final class CountingListener implements ProbeListener {
        final AtomicInteger completed = new AtomicInteger();
        final AtomicInteger delayed = new AtomicInteger();
        /** One permit per result, so the test waits for a round's results without polling. */
        final Semaphore results = new Semaphore(0);

        @Override
        public void completed(CompletedProbe probe) {
            completed.incrementAndGet();
            results.release();
        }

        @Override
        public void skipped(TargetSpec target, SkipReason reason) {
        }

        @Override
        public void delayed(TargetSpec target) {
            delayed.incrementAndGet();
        }
    }
}
