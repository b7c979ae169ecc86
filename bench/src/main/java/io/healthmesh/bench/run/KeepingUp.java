package io.healthmesh.bench.run;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Waits until a consumer keeps up with its input: its lag read at most {@code atMost} in {@code consecutive} samples
 * in a row. The detection phase waits for this before it flips targets: on slow cores a cold aggregator spends its
 * first minute or more behind its input (its JIT compiling Kafka Streams' paths, the broker and the prober compiling
 * theirs), and flips made then measure that backlog, not detection.
 */
public final class KeepingUp {

    /** Reads a lag; may fail (the broker did not answer), which counts as a sample that does not keep up. */
    @FunctionalInterface
    public interface Lag {
        long read() throws Exception;
    }

    /** Pauses between samples; a test passes one that advances a fake clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration pause) throws InterruptedException;
    }

    /**
     * @param keptUp the lag stayed within the bound for the samples asked before {@code within} ran out
     * @param waited from the first sample to the verdict
     * @param lastLag the last lag read, -1 when it could not be read
     */
    public record Outcome(boolean keptUp, Duration waited, long lastLag, long atMost, int consecutive) {

        /** One sentence for the report. */
        public String describe() {
            return keptUp
                    ? String.format(Locale.ROOT, "the aggregator kept up (committed lag at most %d in %d samples a second apart) "
                    + "after %.1f s", atMost, consecutive, waited.toMillis() / 1000.0)
                    : String.format(Locale.ROOT, "the aggregator did NOT keep up within %.1f s (committed lag %d, bound %d): its "
                    + "flips measure a backlog, not detection", waited.toMillis() / 1000.0, lastLag, atMost);
        }
    }

    private final Lag lag;
    private final Sleeper sleeper;
    private final LongSupplier nanoTime;

    public KeepingUp(Lag lag, Sleeper sleeper, LongSupplier nanoTime) {
        this.lag = requireNonNull(lag, "lag");
        this.sleeper = requireNonNull(sleeper, "sleeper");
        this.nanoTime = requireNonNull(nanoTime, "nanoTime");
    }

    /** Samples with the real clock. */
    public static KeepingUp of(Lag lag) {
        return new KeepingUp(lag, pause -> TimeUnit.NANOSECONDS.sleep(pause.toNanos()), System::nanoTime);
    }

    /** Samples every {@code every} until {@code consecutive} samples in a row read at most {@code atMost}. */
    public Outcome await(long atMost, int consecutive, Duration every, Duration within) throws InterruptedException {
        if (atMost < 0 || consecutive < 1) {
            throw new IllegalArgumentException("atMost " + atMost + ", consecutive " + consecutive);
        }
        long start = nanoTime.getAsLong();
        int inARow = 0;
        long last = -1;
        while (true) {
            try {
                last = lag.read();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = -1;
            }
            inARow = last >= 0 && last <= atMost ? inARow + 1 : 0;
            Duration waited = Duration.ofNanos(nanoTime.getAsLong() - start);
            if (inARow >= consecutive) {
                return new Outcome(true, waited, last, atMost, consecutive);
            }
            if (waited.compareTo(within) >= 0) {
                return new Outcome(false, waited, last, atMost, consecutive);
            }
            sleeper.sleep(every);
        }
    }
}
