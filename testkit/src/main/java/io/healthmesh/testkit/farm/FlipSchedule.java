package io.healthmesh.testkit.farm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Flips chosen targets down and up again on a bounded schedule: target {@code i} first goes down at
 * {@code start + i * stagger + random(0..spread)}, stays down for {@code downFor}, up for {@code upFor}, for
 * {@code cycles} cycles. The random part keeps the flips from lining up with the probers' schedule, so that
 * the measured detection times sample the whole probe interval.
 */
public final class FlipSchedule implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FlipSchedule.class);
    /** Flips planned by one schedule. */
    public static final int MAX_FLIPS = 100_000;

    private final ScheduledExecutorService timer;

    private FlipSchedule(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Starts flipping; the returned schedule stops flipping when closed. */
    public static FlipSchedule start(TargetFarm farm, List<FarmTarget> targets, Duration start, Duration stagger,
                                     Duration spread, Duration downFor, Duration upFor, int cycles) {
        requireNonNull(farm, "farm");
        if (cycles < 1 || (long) cycles * targets.size() * 2 > MAX_FLIPS) {
            throw new IllegalArgumentException("cycles: " + cycles + " for " + targets.size()
                    + " targets (expected: 1.." + MAX_FLIPS / 2 + " flips in all)");
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "farm-flips");
            t.setDaemon(true);
            return t;
        });
        long cycleMs = downFor.toMillis() + upFor.toMillis();
        for (int i = 0; i < targets.size(); i++) {
            FarmTarget target = targets.get(i);
            long first = start.toMillis() + i * stagger.toMillis()
                    + (spread.isZero() ? 0 : ThreadLocalRandom.current().nextLong(spread.toMillis()));
            for (int c = 0; c < cycles; c++) {
                long downAt = first + c * cycleMs;
                timer.schedule(() -> flip(farm, target, false), downAt, TimeUnit.MILLISECONDS);
                timer.schedule(() -> flip(farm, target, true), downAt + downFor.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        return new FlipSchedule(timer);
    }

    private static void flip(TargetFarm farm, FarmTarget target, boolean up) {
        try {
            farm.setUp(target, up);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("flip of {} failed", target.key(), e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
