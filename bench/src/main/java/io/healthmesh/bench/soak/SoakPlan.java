package io.healthmesh.bench.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The shape of one soak run, validated so that every process lifetime and every stretch between restarts is long
 * enough for the verdict to judge it.
 *
 * <p>Restarts follow a timer: restart {@code k} (from 1) happens at {@code k x restartEvery}, of the prober when
 * {@code k} is odd and of the aggregator when it is even; each role alternates SIGTERM and SIGKILL (the prober starts
 * with SIGTERM, the aggregator with SIGKILL), so a run of four restarts or more crashes each role once. A restart is
 * planned only while the restarted process can still be judged before the end.
 *
 * @param targets definitions in all, the flapping ones included
 * @param flapping definitions whose farm target goes down and up again (at least 1: the verdict needs a flip)
 * @param intervalMs every definition's probe interval
 * @param duration how long the roles run, from their first start
 * @param sampleEvery the time between samples
 * @param restartEvery the time between restarts (of either role)
 * @param warmup the time after a process's start (and, for lag, after any restart) that the verdict leaves out
 * @param roleHeap {@code -Xms} and {@code -Xmx} of each role's JVM, e.g. {@code 256m}
 */
public record SoakPlan(int targets, int flapping, int intervalMs, Duration duration, Duration sampleEvery,
                       Duration restartEvery, Duration warmup, String roleHeap) {

    /** Targets at most: the long tier's 10,000 with room. */
    public static final int MAX_TARGETS = 100_000;

    /**
     * The prober's {@code max.in.flight} in the soak, written into its settings (the setting's default): the most
     * probes it runs at once, whatever their latency.
     */
    public static final int MAX_IN_FLIGHT = 1_000;

    /**
     * The aggregator's {@code rocksdb.memory.mb} in the soak, written into its settings (the setting's default): the
     * block cache and memtables of all its stores together, native memory outside the heap that each start of the
     * process fills again from empty.
     */
    public static final int ROCKSDB_MEMORY_MB = 256;

    /**
     * One planned restart.
     *
     * @param at when, from the roles' first start
     * @param kill SIGKILL (a crash) rather than SIGTERM
     */
    public record Restart(Duration at, SoakRole role, boolean kill) {

        /** {@code prober:TERM} or {@code aggregator:KILL}, as the CSV's restart column writes it. */
        public String label() {
            return role.command() + ":" + (kill ? "KILL" : "TERM");
        }
    }

    public SoakPlan {
        requireNonNull(duration, "duration");
        requireNonNull(sampleEvery, "sampleEvery");
        requireNonNull(restartEvery, "restartEvery");
        requireNonNull(warmup, "warmup");
        requireNonNull(roleHeap, "roleHeap");
        if (targets < 2 || targets > MAX_TARGETS) {
            throw new IllegalArgumentException("targets: " + targets + " (expected: 2.." + MAX_TARGETS + ")");
        }
        if (flapping < 1 || flapping > Math.min(100, targets / 2)) {
            throw new IllegalArgumentException("flapping: " + flapping + " (expected: 1.." + Math.min(100, targets / 2)
                    + ", at most half the targets)");
        }
        if (intervalMs < 500 || intervalMs > 60_000) {
            throw new IllegalArgumentException("intervalMs: " + intervalMs + " (expected: 500..60000)");
        }
        if (sampleEvery.toMillis() < 1_000 || sampleEvery.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("sampleEvery: " + sampleEvery + " (expected: 1s..10m)");
        }
        if (duration.compareTo(Duration.ofHours(48)) > 0) {
            throw new IllegalArgumentException("duration: " + duration + " (expected: at most 48h)");
        }
        Duration judgedWindow = sampleEvery.multipliedBy(SoakBounds.MIN_WINDOW_SAMPLES);
        if (restartEvery.compareTo(warmup.plus(sampleEvery)) <= 0) {
            throw new IllegalArgumentException("restartEvery: " + restartEvery + " (expected: longer than warmup "
                    + warmup + " plus one sample, or no lag sample falls after a warm-up)");
        }
        if (restartEvery.multipliedBy(2).compareTo(warmup.plus(judgedWindow)) < 0) {
            throw new IllegalArgumentException("restartEvery: " + restartEvery + " (expected: a process lifetime, "
                    + "twice it, of at least warmup plus " + SoakBounds.MIN_WINDOW_SAMPLES + " samples)");
        }
        if (duration.compareTo(warmup.plus(judgedWindow)) < 0) {
            throw new IllegalArgumentException("duration: " + duration + " (expected: at least warmup plus "
                    + SoakBounds.MIN_WINDOW_SAMPLES + " samples, " + warmup.plus(judgedWindow).toSeconds() + " s)");
        }
        if (!roleHeap.matches("[1-9][0-9]{0,5}[mMgG]")) {
            throw new IllegalArgumentException("roleHeap: " + roleHeap + " (expected: e.g. 256m or 1g)");
        }
    }

    /** The restarts of the run, in time order. */
    public List<Restart> restarts() {
        Duration judged = warmup.plus(sampleEvery.multipliedBy(SoakBounds.MIN_WINDOW_SAMPLES));
        List<Restart> restarts = new ArrayList<>();
        for (int k = 1; ; k++) {
            Duration at = restartEvery.multipliedBy(k);
            if (at.plus(judged).compareTo(duration) > 0) {
                return restarts;
            }
            SoakRole role = k % 2 == 1 ? SoakRole.PROBER : SoakRole.AGGREGATOR;
            int ofRole = (k + 1) / 2; // the role's first, second, ... restart
            boolean kill = role == SoakRole.PROBER ? ofRole % 2 == 0 : ofRole % 2 == 1;
            restarts.add(new Restart(at, role, kill));
        }
    }

    /** This plan with its clock shortened (or lengthened) to {@code newDuration}; validated as any plan. */
    public SoakPlan withDuration(Duration newDuration) {
        return new SoakPlan(targets, flapping, intervalMs, newDuration, sampleEvery, restartEvery, warmup, roleHeap);
    }

    /**
     * The shortest clock worth running: both roles restarted once, and the second restart's process judged (its
     * warm-up plus {@link SoakBounds#MIN_WINDOW_SAMPLES} samples).
     */
    public Duration shortestUseful() {
        return restartEvery.multipliedBy(2).plus(warmup).plus(sampleEvery.multipliedBy(SoakBounds.MIN_WINDOW_SAMPLES));
    }

    /** The definitions that stay up the whole run. */
    public int steadyTargets() {
        return targets - flapping;
    }

    /** {@link #roleHeap} in MiB. */
    public int roleHeapMib() {
        int amount = Integer.parseInt(roleHeap.substring(0, roleHeap.length() - 1));
        return Character.toLowerCase(roleHeap.charAt(roleHeap.length() - 1)) == 'g' ? amount * 1024 : amount;
    }

    /**
     * Every definition's probe timeout: half the interval. The soak looks for leaks, and a farm or prober starved of
     * CPU for a second on a shared machine must not fail a steady target.
     */
    public int probeTimeoutMs() {
        return intervalMs / 2;
    }

    /**
     * The most probes the prober can have in flight at once, one socket each: {@link #MAX_IN_FLIGHT}, or fewer when
     * every probe of one interval holding its socket for its whole timeout would not reach it (targets x timeout /
     * interval).
     */
    public int probesInFlight() {
        long bySchedule = ((long) targets * probeTimeoutMs() + intervalMs - 1) / intervalMs;
        return (int) Math.min(MAX_IN_FLIGHT, bySchedule);
    }

    /** The lag the verdict allows: one interval's results of every target, and at least 1,000 records. */
    public long maxLag() {
        return Math.max(1_000, targets);
    }
}
