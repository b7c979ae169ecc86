package io.healthmesh.prober.schedule;

import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeEngine;
import io.netty.util.Timer;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Drives every owned target from one timer (a {@link io.netty.util.HashedWheelTimer} in production, a manual
 * timer in tests): no thread and no task object per target beyond its one pending timeout.
 *
 * <ul>
 *   <li>L4 (TCP, UDP, ICMP) runs at a <b>fixed rate</b>: slot {@code n} is planned at
 *       {@code firstStart + n x interval} whatever the previous probe did. If the target's previous probe
 *       is still running at a slot, or the in-flight bound is reached, the slot is skipped and counted
 *       ({@link SkipReason}); a late probe would only shift the grid.</li>
 *   <li>L7 (HTTP, HTTPS) runs at a <b>fixed delay</b>: the next probe is planned {@code interval} after the
 *       last one ended. When the in-flight bound is reached it waits in a FIFO for the next free slot
 *       (counted as delayed) and its lag shows the wait.</li>
 *   <li>Under a profile whose document gives one formula for every kind (TENCENT_EDGEONE, ALIBABA_GA) every
 *       protocol runs at a fixed delay ({@link TargetSpec#fixedDelay()}).</li>
 *   <li>The first start is jittered uniformly in {@code [0, jitterFraction x interval]}; under TENCENT_CLB it
 *       comes one interval later, so that DETECTING lasts {@code interval x healthyThreshold} (000).</li>
 * </ul>
 *
 * <p>{@link #schedule}, {@link #remove} and {@link #removeAll} are thread-safe and take effect before they
 * return: once {@code remove} returns, no new probe of that target starts and no result of it is reported.
 */
public final class ProbeScheduler implements AutoCloseable {

    /** The coarsest timer resolution accepted (the prober's {@code timer.tick.ms} bound). */
    static final Duration MAX_TIMER_TICK = Duration.ofSeconds(1);

    /** Default share of {@code min(interval, timeout)} a probe may start late before its timeout is inconclusive. */
    public static final double DEFAULT_LATE_FRACTION = 0.25;

    private final ProbeEngine engine;
    private final ProbeListener listener;
    private final Timer timer;
    private final Ticker ticker;
    private final Clock clock;
    private final DoubleSupplier random;
    private final int maxInFlight;
    private final double jitterFraction;
    private final double lateFraction;
    private final long halfTickNanos;

    private final ConcurrentHashMap<String, ScheduledTarget> targets = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ScheduledTarget> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger drainRequests = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param timer fires every planned start; the scheduler does not own it (the caller stops it)
     * @param random uniform in {@code [0, 1)}, used for the first-start jitter
     * @param maxInFlight probes running at once across all targets, 1 or more
     * @param jitterFraction share of the interval over which first starts spread, 0 to 1
     */
    public ProbeScheduler(ProbeEngine engine, ProbeListener listener, Timer timer, Ticker ticker, Clock clock,
                          DoubleSupplier random, int maxInFlight, double jitterFraction) {
        this(engine, listener, timer, ticker, clock, random, maxInFlight, jitterFraction, DEFAULT_LATE_FRACTION);
    }

    /**
     * @param lateFraction a probe that starts later than {@code lateFraction x min(interval, timeout)} after its plan
     *                     and times out (or errs) is {@code INCONCLUSIVE}; above 0, at most 1
     */
    public ProbeScheduler(ProbeEngine engine, ProbeListener listener, Timer timer, Ticker ticker, Clock clock,
                          DoubleSupplier random, int maxInFlight, double jitterFraction, double lateFraction) {
        this(engine, listener, timer, ticker, clock, random, maxInFlight, jitterFraction, lateFraction, Duration.ZERO);
    }

    /**
     * @param timerTick the timer's resolution: a {@link io.netty.util.HashedWheelTimer} runs a task at the end of the
     *                  tick its deadline falls in, so up to one tick late and half a tick on average. A fixed-delay
     *                  target asks for its next start half a tick early, which puts that start at the tick nearest
     *                  its plan (within half a tick either side) instead of adding half a tick per probe to the
     *                  L7 detection window; {@link Duration#ZERO} for a timer that runs tasks at their deadline
     */
    public ProbeScheduler(ProbeEngine engine, ProbeListener listener, Timer timer, Ticker ticker, Clock clock,
                          DoubleSupplier random, int maxInFlight, double jitterFraction, double lateFraction,
                          Duration timerTick) {
        this.engine = requireNonNull(engine, "engine");
        this.listener = requireNonNull(listener, "listener");
        this.timer = requireNonNull(timer, "timer");
        this.ticker = requireNonNull(ticker, "ticker");
        this.clock = requireNonNull(clock, "clock");
        this.random = requireNonNull(random, "random");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight: " + maxInFlight + " (expected: >= 1)");
        }
        if (!(jitterFraction >= 0 && jitterFraction <= 1)) {
            throw new IllegalArgumentException("jitterFraction: " + jitterFraction + " (expected: 0..1)");
        }
        if (!(lateFraction > 0 && lateFraction <= 1)) {
            throw new IllegalArgumentException("lateFraction: " + lateFraction + " (expected: above 0, at most 1)");
        }
        if (timerTick == null || timerTick.isNegative() || timerTick.compareTo(MAX_TIMER_TICK) > 0) {
            throw new IllegalArgumentException("timerTick: " + timerTick + " (expected: 0 to " + MAX_TIMER_TICK + ")");
        }
        this.maxInFlight = maxInFlight;
        this.jitterFraction = jitterFraction;
        this.lateFraction = lateFraction;
        this.halfTickNanos = timerTick.toNanos() / 2;
    }

    /**
     * Starts probing a target, or applies a new definition of a target already scheduled. A definition with
     * the same generation, intervals (all three) and timeout keeps the running schedule and its pace (only
     * thresholds, group, weight or labels changed); any other change cancels it and starts a new one, which starts
     * from {@link io.healthmesh.core.target.IntervalState#START} at {@code intervalMs}.
     */
    public void schedule(TargetSpec spec) {
        requireNonNull(spec, "spec");
        if (closed) {
            throw new IllegalStateException("scheduler closed");
        }
        targets.compute(spec.id(), (id, current) -> {
            if (current != null && current.keepsScheduleFor(spec)) {
                current.update(spec);
                return current;
            }
            if (current != null) {
                current.cancel();
            }
            ScheduledTarget next = new ScheduledTarget(this, spec);
            next.start(firstDelayNanos(spec));
            return next;
        });
    }

    /** Stops probing a target; a probe already running finishes but its result is not reported. */
    public void remove(String targetId) {
        ScheduledTarget removed = targets.remove(targetId);
        if (removed != null) {
            removed.cancel();
        }
    }

    /** {@link #remove} for each id. */
    public void removeAll(Collection<String> targetIds) {
        for (String id : targetIds) {
            remove(id);
        }
    }

    /** The phase a scheduled target is paced by (BEHAVIOUR.md section 5b), or {@code null} when it is not scheduled. */
    public io.healthmesh.core.target.IntervalState.Phase phaseOf(String targetId) {
        ScheduledTarget t = targets.get(targetId);
        return t == null ? null : t.phase();
    }

    /** Ids of the targets scheduled now. */
    public Set<String> targetIds() {
        return Set.copyOf(targets.keySet());
    }

    public int targetCount() {
        return targets.size();
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Cancels every schedule; running probes finish unreported. Does not stop the timer or the engine. */
    @Override
    public void close() {
        closed = true;
        for (String id : targets.keySet()) {
            remove(id);
        }
        waiting.clear();
    }

    private long firstDelayNanos(TargetSpec spec) {
        long interval = TimeUnit.MILLISECONDS.toNanos(spec.intervalMs());
        long jitter = (long) (random.getAsDouble() * jitterFraction * interval);
        // 000: a new backend stays DETECTING for interval x healthyThreshold, so its first probe waits one interval
        return spec.profile().firstProbeAfterOneInterval() ? interval + jitter : jitter;
    }

    // --- used by ScheduledTarget ---

    ProbeEngine engine() {
        return engine;
    }

    double lateFraction() {
        return lateFraction;
    }

    ProbeListener listener() {
        return listener;
    }

    Timer timer() {
        return timer;
    }

    /** Half the timer's resolution: how early a fixed-delay start is asked for. */
    long halfTickNanos() {
        return halfTickNanos;
    }

    long nanoTime() {
        return ticker.nanoTime();
    }

    long wallMillis() {
        return clock.millis();
    }

    boolean tryAcquireSlot() {
        while (true) {
            int current = inFlight.get();
            if (current >= maxInFlight) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /**
     * Frees a slot and hands it to the longest-waiting fixed-delay probe, if any. Call with no target lock held.
     *
     * <p>With no one waiting (the usual case: L4 probes never wait, L7 ones only at the in-flight bound) it stops
     * after one read of the queue, without touching the drain counter that every probing thread would otherwise
     * contend on per probe. A probe queued concurrently is not stranded: {@link #await} adds it before it looks
     * for a slot, and this decrement comes before this read, so either this read sees it or its own look sees
     * the freed slot (both are volatile accesses, totally ordered).
     */
    void releaseSlot() {
        inFlight.decrementAndGet();
        if (!waiting.isEmpty()) {
            drainWaiting();
        }
    }

    /** Queues a fixed-delay probe for the next free slot. Call with no target lock held. */
    void await(ScheduledTarget target) {
        waiting.add(target);
        // a slot may have been freed between the failed acquire and the add: try again so no one waits forever
        drainWaiting();
    }

    /**
     * Hands free slots to waiting probes. One thread drains at a time; a request made meanwhile (also from a
     * probe that completed at once inside the drain) makes that thread drain again, so no slot is left idle
     * and the stack never grows with the queue.
     */
    private void drainWaiting() {
        if (drainRequests.getAndIncrement() != 0) {
            return;
        }
        do {
            while (!waiting.isEmpty() && tryAcquireSlot()) {
                ScheduledTarget next = waiting.poll();
                if (next == null || !next.launchAfterWait()) {
                    inFlight.decrementAndGet();
                }
            }
        } while (drainRequests.decrementAndGet() != 0);
    }
}
