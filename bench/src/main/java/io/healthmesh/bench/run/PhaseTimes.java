package io.healthmesh.bench.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Wall time of each step of a run, for the report: {@link #mark} closes the step that began at the previous mark
 * (or at construction) under the name given, so consecutive marks cover the run without gaps. Thread-safe.
 */
public final class PhaseTimes {

    private final LongSupplier nanoClock;
    private final List<String> names = new ArrayList<>();
    private final List<Long> nanos = new ArrayList<>();
    private final long start;
    private long last;

    public PhaseTimes(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.start = nanoClock.getAsLong();
        this.last = start;
    }

    /** Wall time since construction. */
    public Duration elapsed() {
        return Duration.ofNanos(nanoClock.getAsLong() - start);
    }

    /** Ends the current step, naming it {@code name}. */
    public synchronized void mark(String name) {
        long now = nanoClock.getAsLong();
        names.add(name);
        nanos.add(now - last);
        last = now;
    }

    /** One line: each step's seconds in order, and their sum. */
    public synchronized String describe() {
        StringBuilder line = new StringBuilder("Wall time per step: ");
        long total = 0;
        for (int i = 0; i < names.size(); i++) {
            line.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ')
                    .append(String.format(Locale.ROOT, "%.1f s", nanos.get(i) / 1e9));
            total += nanos.get(i);
        }
        return line.append(String.format(Locale.ROOT, " (sum %.1f s).", total / 1e9)).toString();
    }
}
