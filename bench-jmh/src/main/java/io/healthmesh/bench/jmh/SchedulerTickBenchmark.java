package io.healthmesh.bench.jmh;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.prober.schedule.ProbeListener;
import io.healthmesh.prober.schedule.ProbeScheduler;
import io.healthmesh.prober.schedule.SkipReason;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Clock;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * One scheduler tick: the timer fires a due target, the scheduler takes an in-flight slot, starts the probe
 * (an engine whose future is already complete, so no I/O is measured), hands the completed probe to the
 * listener and re-arms the target. The per-probe cost of the scheduler alone, over {@code targets} targets.
 */
public class SchedulerTickBenchmark extends NanosPerOperation {

    @Param({"1000", "100000"})
    public int targets;

    private DueOrderTimer timer;
    private ProbeScheduler scheduler;
    private CountingListener listener;

    @Setup(Level.Trial)
    public void setUp() {
        timer = new DueOrderTimer();
        listener = new CountingListener();
        CompletableFuture<ProbeReport> done = CompletableFuture.completedFuture(
                new ProbeReport(Outcome.SUCCESS, 120, 80L, null, null, null, null));
        ProbeEngine engine = new ProbeEngine() {
            @Override
            public CompletableFuture<ProbeReport> probe(TargetSpec target) {
                return done;
            }

            @Override
            public void close() {
            }
        };
        SplittableRandom random = new SplittableRandom(42);
        scheduler = new ProbeScheduler(engine, listener, timer, timer, Clock.systemUTC(), random::nextDouble,
                targets, 0.1);
        for (int i = 0; i < targets; i++) {
            int host = i % 250 + 1;
            scheduler.schedule(TargetSpec.of("t-" + i, "g-" + (i % 100), "127.1." + (i / 250 % 250) + "." + host,
                    8000 + i % 1000, Protocol.TCP).withTiming(10_000, 2_000));
        }
        timer.sort();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scheduler.close();
        if (listener.completed == 0) {
            throw new IllegalStateException("no probe completed: the benchmark measured nothing");
        }
    }

    @Benchmark
    public boolean tick() throws Exception {
        return timer.fireNext();
    }

    /** Counts what a real listener would hand to the publisher. */
    static final class CountingListener implements ProbeListener {
        long completed;
        long lagMicros;

        @Override
        public void completed(CompletedProbe probe) {
            completed++;
            lagMicros += probe.schedulingLagMicros();
        }

        @Override
        public void skipped(TargetSpec target, SkipReason reason) {
            throw new IllegalStateException("skipped " + target.id() + ": " + reason);
        }

        @Override
        public void delayed(TargetSpec target) {
            throw new IllegalStateException("delayed " + target.id());
        }
    }
}
