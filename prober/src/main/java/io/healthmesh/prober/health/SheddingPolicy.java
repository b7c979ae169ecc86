package io.healthmesh.prober.health;

/**
 * When a prober sheds its load (BEHAVIOUR.md section 4: an overloaded prober gives partitions up rather than report failures
 * it caused). A one-second sample is bad when the timer ran a task later than {@code lagMs}, an event loop did, or
 * the CPU steal (where {@code /proc/stat} shows it) was above {@code stealPercent}. After {@code afterSamples} bad
 * samples in a row the prober is overloaded; after {@code recoverSamples} good samples in a row it is healthy again.
 *
 * @param enabled false: measure and expose, never shed
 */
public record SheddingPolicy(boolean enabled, long lagMs, double stealPercent, int afterSamples, int recoverSamples) {

    public static final long DEFAULT_LAG_MS = 1_000;
    public static final double DEFAULT_STEAL_PERCENT = 50;
    public static final int DEFAULT_AFTER_SAMPLES = 10;
    public static final int DEFAULT_RECOVER_SAMPLES = 30;
    public static final SheddingPolicy DEFAULT = new SheddingPolicy(true, DEFAULT_LAG_MS, DEFAULT_STEAL_PERCENT,
            DEFAULT_AFTER_SAMPLES, DEFAULT_RECOVER_SAMPLES);

    public SheddingPolicy {
        if (lagMs < 10 || lagMs > 60_000) {
            throw new IllegalArgumentException("shed.lag.ms: " + lagMs + " (expected: 10..60000)");
        }
        if (!(stealPercent > 0 && stealPercent <= 100)) {
            throw new IllegalArgumentException("shed.steal.percent: " + stealPercent + " (expected: above 0, at most 100)");
        }
        if (afterSamples < 1 || afterSamples > 3_600) {
            throw new IllegalArgumentException("shed.after.s: " + afterSamples + " (expected: 1..3600)");
        }
        if (recoverSamples < 1 || recoverSamples > 3_600) {
            throw new IllegalArgumentException("shed.recover.s: " + recoverSamples + " (expected: 1..3600)");
        }
    }

    /** Why {@code sample} is bad, or {@code null} when it is good. */
    String trouble(HealthSample sample) {
        if (sample.timerLagMs() > lagMs) {
            return "timer ran " + sample.timerLagMs() + " ms late (bound " + lagMs + " ms)";
        }
        if (sample.loopLagMs() > lagMs) {
            return "an event loop ran " + sample.loopLagMs() + " ms late (bound " + lagMs + " ms)";
        }
        if (!Double.isNaN(sample.stealPercent()) && sample.stealPercent() > stealPercent) {
            return String.format(java.util.Locale.ROOT, "CPU steal %.1f %% (bound %.1f %%)", sample.stealPercent(),
                    stealPercent);
        }
        return null;
    }
}
