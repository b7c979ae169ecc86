package io.healthmesh.prober.schedule;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.IntervalState;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeReport;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The schedule of one target. It is its own timer task and its own completion callback, so a probe costs
 * one timeout and the engine's future, nothing else. At most one probe of a target runs at a time, which
 * is why the running probe's plan and start fit in fields.
 *
 * <p>State is guarded by {@code this}. The engine is called under the lock (so that a cancelled target starts
 * nothing), but the completion callback, listener calls and slot hand-overs run after it is released, so two
 * targets' locks are never nested, even when a probe completes at once.
 *
 * <p>The prober's own trouble never votes against the target (BEHAVIOUR.md section 4): a slot skipped at the in-flight bound
 * is reported as {@code INCONCLUSIVE} ({@code queue-full}); a timeout or error of a probe that started later than
 * the bound ({@code lateFraction x min(interval, timeout)}) is {@code INCONCLUSIVE} ({@code late-start}); an engine
 * that throws or fails its future gives {@code INCONCLUSIVE} ({@code internal-error}).
 *
 * <p>The interval in force follows the target's {@link IntervalState}, updated by each conclusive verdict (BEHAVIOUR.md
 * section 5b). A change applies from the verdict that caused it and never adds a probe: at a fixed delay the next start
 * is the new interval after this probe ended; at a fixed rate the grid is re-anchored at this probe's planned start, so
 * the next slot is the new interval after it (or at once, if a verdict came later than that). Each target keeps its
 * own phase (its jittered first start, moved by its own verdicts), so targets that change pace together, e.g. when a
 * network fails, do not line up.
 */
final class ScheduledTarget implements TimerTask, BiConsumer<ProbeReport, Throwable> {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduledTarget.class);

    private final ProbeScheduler owner;
    private final long generation;
    private final boolean fixedRate;

    private volatile TargetSpec spec;
    private boolean cancelled;
    private boolean running;
    private boolean waitingForSlot;
    private Timeout pending;
    private long plannedNanos;
    private long runningPlannedNanos;
    private long runningStartNanos;
    private long runningStartWallMs;
    private long runningLateBoundNanos;
    /** The interval in force: the one {@link #pacing} gives. */
    private long intervalNanos;
    /** This prober's view of the target's state, from its own verdicts only. */
    private IntervalState pacing = IntervalState.START;
    /** Verdicts of one kind in a row, this one included (0 after an INCONCLUSIVE); see {@link #runAfter}. */
    private int run;
    /** Whether the current run is of successes (else of failures). */
    private boolean runSucceeds;

    ScheduledTarget(ProbeScheduler owner, TargetSpec spec) {
        this.owner = owner;
        this.spec = spec;
        this.generation = ProbeFingerprint.of(spec);
        this.fixedRate = !spec.fixedDelay();
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(pacing.intervalMs(spec));
    }

    /** True when {@code next} probes the same thing on the same timing, so the running schedule stays. */
    boolean keepsScheduleFor(TargetSpec next) {
        TargetSpec current = spec;
        return ProbeFingerprint.of(next) == generation
                && next.intervalMs() == current.intervalMs()
                && next.timeoutMs() == current.timeoutMs()
                && Objects.equals(next.fastIntervalMs(), current.fastIntervalMs())
                && Objects.equals(next.downIntervalMs(), current.downIntervalMs());
    }

    /** A definition that keeps the schedule: new thresholds re-judge the counts (the pace follows at the next verdict). */
    synchronized void update(TargetSpec next) {
        spec = next;
        pacing = pacing.rethreshold(next.healthyThreshold(), next.unhealthyThreshold());
    }

    /** The phase this target is paced by now. */
    synchronized IntervalState.Phase phase() {
        return pacing.phase();
    }

    synchronized void start(long firstDelayNanos) {
        plannedNanos = owner.nanoTime() + firstDelayNanos;
        pending = owner.timer().newTimeout(this, firstDelayNanos, TimeUnit.NANOSECONDS);
    }

    synchronized void cancel() {
        cancelled = true;
        waitingForSlot = false;
        if (pending != null) {
            pending.cancel();
            pending = null;
        }
    }

    /** A planned start is due (timer thread). */
    @Override
    public void run(Timeout timeout) {
        SkipReason skipped = null;
        boolean mustWait = false;
        int missedSlots = 0;
        CompletedProbe refused = null;
        CompletableFuture<ProbeReport> started = null;
        synchronized (this) {
            if (cancelled || timeout != pending) {
                return;
            }
            pending = null;
            long now = owner.nanoTime();
            long planned = plannedNanos;
            if (fixedRate) {
                long next = planned + intervalNanos;
                while (next <= now) {
                    next += intervalNanos;
                    missedSlots++;
                }
                plannedNanos = next;
                pending = owner.timer().newTimeout(this, next - now, TimeUnit.NANOSECONDS);
                if (running) {
                    skipped = SkipReason.PREVIOUS_STILL_RUNNING;
                } else if (!owner.tryAcquireSlot()) {
                    skipped = SkipReason.IN_FLIGHT_LIMIT;
                    run = 0;   // reported INCONCLUSIVE, as in accept
                    refused = new CompletedProbe(spec, generation, owner.wallMillis(),
                            TimeUnit.NANOSECONDS.toMicros(Math.max(0, now - planned)),
                            ProbeReport.of(Outcome.INCONCLUSIVE, 0, InconclusiveCause.QUEUE_FULL.detail(
                                    "the prober's bound on probes in flight was reached; no probe at this slot")));
                } else {
                    started = launch(planned, now);
                }
            } else if (owner.tryAcquireSlot()) {
                started = launch(planned, now);
            } else {
                waitingForSlot = true;
                mustWait = true;
            }
        }
        if (started != null) {
            started.whenComplete(this);
        }
        TargetSpec current = spec;
        for (int i = 0; i < missedSlots; i++) {
            owner.listener().skipped(current, SkipReason.MISSED_SLOT);
        }
        if (skipped != null) {
            owner.listener().skipped(current, skipped);
        }
        if (refused != null) {
            owner.listener().completed(refused);
        }
        if (mustWait) {
            owner.listener().delayed(current);
            owner.await(this);
        }
    }

    /** Starts the probe that waited for a slot; false (the caller frees the slot) when it was cancelled meanwhile. */
    boolean launchAfterWait() {
        CompletableFuture<ProbeReport> started;
        synchronized (this) {
            if (cancelled || !waitingForSlot) {
                return false;
            }
            waitingForSlot = false;
            started = launch(plannedNanos, owner.nanoTime());
        }
        started.whenComplete(this);
        return true;
    }

    /**
     * Starts a probe; called holding the lock and a slot, so that once {@link #cancel} returns no probe starts.
     * The caller attaches {@link #accept} after releasing the lock: a future that is already complete then runs
     * it on the caller's thread with no lock held.
     */
    private CompletableFuture<ProbeReport> launch(long planned, long now) {
        running = true;
        runningPlannedNanos = planned;
        runningStartNanos = now;
        runningStartWallMs = owner.wallMillis();
        runningLateBoundNanos = TimeUnit.MILLISECONDS.toNanos(InconclusiveCause.boundMs(owner.lateFraction(),
                (int) TimeUnit.NANOSECONDS.toMillis(intervalNanos), spec.timeoutMs()));
        CompletableFuture<ProbeReport> probe;
        try {
            probe = owner.engine().probe(spec);
        } catch (RuntimeException | LinkageError e) {
            // the engine's contract is to never throw; if it does (a bug, a broken deployment), this probe is an
            // ERROR and the schedule goes on: the slot is freed and the target is not stuck "running"
            // no stack trace at WARN: a broken engine fails every probe, and the log must stay readable
            LOG.warn("probe engine failed to start a probe of {}: {}", spec.id(), e.toString());
            LOG.debug("probe engine failure", e);
            probe = CompletableFuture.failedFuture(e);
        }
        return probe;
    }

    /** The engine's verdict (event-loop thread, or the launching thread when the future was already done). */
    @Override
    public void accept(ProbeReport report, Throwable error) {
        long end = owner.nanoTime();
        ProbeReport verdict = report != null ? report
                : ProbeReport.of(Outcome.INCONCLUSIVE, TimeUnit.NANOSECONDS.toMicros(end - runningStartNanosSafe()),
                        InconclusiveCause.INTERNAL_ERROR.detail("probe engine failed: " + error));
        CompletedProbe done = null;
        synchronized (this) {
            running = false;
            if (!cancelled) {
                long lagNanos = Math.max(0, runningStartNanos - runningPlannedNanos);
                long lagMicros = TimeUnit.NANOSECONDS.toMicros(lagNanos);
                if (lagNanos > runningLateBoundNanos && verdict.outcome().mayBeProberTrouble()) {
                    verdict = late(verdict, lagNanos);
                }
                Outcome outcome = verdict.outcome();
                run = runAfter(run, runSucceeds, outcome);
                runSucceeds = outcome.isSuccess();
                done = new CompletedProbe(spec, generation, runningStartWallMs, lagMicros, verdict,
                        mayDecide(run, outcome, spec));
                long before = intervalNanos;
                if (outcome.isConclusive()) {
                    pacing = pacing.after(outcome.isSuccess(), spec.healthyThreshold(), spec.unhealthyThreshold());
                    intervalNanos = TimeUnit.MILLISECONDS.toNanos(pacing.intervalMs(spec));
                }
                if (!fixedRate) {
                    plannedNanos = end + intervalNanos;
                    pending = owner.timer().newTimeout(this, delayAsk(intervalNanos), TimeUnit.NANOSECONDS);
                } else if (intervalNanos != before) {
                    reanchor(end);
                }
            }
        }
        owner.releaseSlot();
        if (done != null) {
            owner.listener().completed(done);
        }
    }

    /**
     * The timeout asked for a fixed-delay start: the wheel runs a task at the end of its deadline's tick, so asked half
     * a tick early the start lands on the tick nearest its plan, instead of half a tick late on average, which a fixed
     * delay would add up probe after probe (2 x 5 ms over an L7 window of 3 at the default 10 ms tick).
     */
    private long delayAsk(long interval) {
        return interval - Math.min(owner.halfTickNanos(), interval / 2);
    }

    /**
     * A fixed-rate target whose interval changed with the verdict that ended at {@code now}: the next slot is the new
     * interval after that probe's planned start, or {@code now} when that has passed (a verdict that came later than a
     * fast interval, at most by the timer's tick since the timeout fits the interval). The slot already planned on the
     * old grid is dropped, not run as well, so a change of pace never adds a probe.
     */
    private void reanchor(long now) {
        if (pending != null) {
            pending.cancel();
        }
        plannedNanos = Math.max(runningPlannedNanos + intervalNanos, now);
        pending = owner.timer().newTimeout(this, plannedNanos - now, TimeUnit.NANOSECONDS);
    }

    /**
     * The length of the run of verdicts of one kind (successes, or failures) once {@code outcome} is added to a run of
     * {@code run} verdicts whose kind is {@code runSucceeds}: an {@code INCONCLUSIVE} verdict ends it (0), a verdict of
     * the other kind starts a new one (1). Saturates rather than wraps.
     */
    static int runAfter(int run, boolean runSucceeds, Outcome outcome) {
        if (!outcome.isConclusive()) {
            return 0;
        }
        if (run == 0 || outcome.isSuccess() != runSucceeds) {
            return 1;
        }
        return run == Integer.MAX_VALUE ? run : run + 1;
    }

    /**
     * Whether the verdict that made a run {@code run} long can be the one the aggregator changes the target's state
     * on: the run is no longer than the threshold of its kind. That threshold's verdict is the deciding one when the
     * aggregator counted the same run; an earlier one decides when it also counted results from before this schedule
     * (another prober of the region, before a hand-over). Leaving out a run's later verdicts costs them only latency.
     * An {@code INCONCLUSIVE} verdict counts for neither threshold and never decides.
     */
    static boolean mayDecide(int run, Outcome outcome, TargetSpec spec) {
        return outcome.isConclusive()
                && run <= (outcome.isSuccess() ? spec.healthyThreshold() : spec.unhealthyThreshold());
    }

    /** A timeout or error of a probe that started too late to be fair: the prober's trouble, not the target's. */
    private ProbeReport late(ProbeReport verdict, long lagNanos) {
        String detail = InconclusiveCause.LATE_START.detail("started " + TimeUnit.NANOSECONDS.toMillis(lagNanos)
                + " ms late (bound " + TimeUnit.NANOSECONDS.toMillis(runningLateBoundNanos) + " ms); " + verdict.outcome()
                + (verdict.detail() == null ? "" : ": " + verdict.detail()));
        return new ProbeReport(Outcome.INCONCLUSIVE, verdict.latencyMicros(), verdict.connectMicros(),
                verdict.tlsMicros(), verdict.firstByteMicros(), verdict.httpStatus(), detail, verdict.bytesRead());
    }

    private synchronized long runningStartNanosSafe() {
        return runningStartNanos;
    }
}
