package io.healthmesh.prober.health;

import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Samples the prober's own health once a second on a thread of its own: how late the timer wheel runs a task (a
 * task is planned each second; its lateness beyond one tick is the sample), the worst event-loop lag the engine saw,
 * and CPU steal. Feeds {@link SelfHealth} and tells {@code onChange} when the prober becomes overloaded or healthy.
 */
public final class SelfMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SelfMonitor.class);

    private final Timer timer;
    private final long tickNanos;
    private final LongSupplier loopLagMicros;
    private final DoubleSupplier stealPercent;
    private final SelfHealth health;
    private final Consumer<Boolean> onChange;
    private final ScheduledExecutorService sampler;

    private volatile long plannedNanos;
    private volatile long measuredLagNanos = -1;
    private volatile HealthSample last = new HealthSample(0, 0, Double.NaN);
    private volatile boolean overloaded;

    /**
     * @param timer the scheduler's timer wheel
     * @param tickMs its tick (a lateness up to one tick is the wheel's resolution, not a lag)
     * @param loopLagMicros the worst event-loop lag since the previous call (resets it)
     * @param stealPercent CPU steal since the previous call, {@code NaN} when not visible
     * @param onChange told {@code true} when the prober becomes overloaded, {@code false} when it recovers
     */
    public SelfMonitor(Timer timer, long tickMs, LongSupplier loopLagMicros, DoubleSupplier stealPercent,
                       SheddingPolicy policy, Consumer<Boolean> onChange) {
        this.timer = requireNonNull(timer, "timer");
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMs);
        this.loopLagMicros = requireNonNull(loopLagMicros, "loopLagMicros");
        this.stealPercent = requireNonNull(stealPercent, "stealPercent");
        this.health = new SelfHealth(policy);
        this.onChange = requireNonNull(onChange, "onChange");
        this.sampler = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("healthmesh-self-monitor", true));
    }

    public SelfMonitor start() {
        planTimerTask();
        sampler.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
        return this;
    }

    /** The latest one-second sample. */
    public HealthSample lastSample() {
        return last;
    }

    /** True while the prober sheds its load. */
    public boolean overloaded() {
        return overloaded;
    }

    private void planTimerTask() {
        long planned = System.nanoTime();
        plannedNanos = planned;
        measuredLagNanos = -1;
        try {
            timer.newTimeout(t -> measuredLagNanos = System.nanoTime() - planned, 0, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            // the timer is stopped: the worker is closing
        }
    }

    private void sample() {
        try {
            long measured = measuredLagNanos;
            long timerLag = measured >= 0 ? measured : System.nanoTime() - plannedNanos; // still waiting: at least this
            long timerLagMs = TimeUnit.NANOSECONDS.toMillis(Math.max(0, timerLag - tickNanos));
            HealthSample sample = new HealthSample(timerLagMs, loopLagMicros.getAsLong() / 1_000,
                    stealPercent.getAsDouble());
            last = sample;
            if (measured >= 0) {
                planTimerTask();
            }
            if (health.observe(sample)) {
                overloaded = health.overloaded();
                if (overloaded) {
                    LOG.warn("prober overloaded ({}): giving its targets up to the other probers of the region,"
                            + " if one is there to take them", health.lastTrouble());
                } else {
                    LOG.info("prober healthy again: ready to take targets");
                }
                onChange.accept(overloaded);
            }
        } catch (RuntimeException e) {
            LOG.warn("self-health sample failed", e);
        }
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
