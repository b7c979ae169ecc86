package io.healthmesh.cli.output;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress bar on stderr while many records are read or written (redrawn at most every 250 ms), and the rate at the
 * end. The rate is counted from the first record, so connecting and the first fetch do not dilute it. Thread-safe: a
 * producer's callbacks may advance it while the main thread draws.
 */
public final class Progress {

    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String verb;
    private final String past;
    private final String label;
    private final long total;
    private final LongSupplier nanos;
    private final long startedNanos;
    private long firstRecordNanos;
    private long lastDrawNanos;
    private long done;

    /**
     * @param verb  what is done, e.g. {@code reading}
     * @param past  the same in the past tense, e.g. {@code read}
     * @param label of what, e.g. a topic's name
     */
    public Progress(PrintWriter err, String verb, String past, String label, long total, LongSupplier nanos) {
        this.err = err;
        this.verb = verb;
        this.past = past;
        this.label = label;
        this.total = total;
        this.nanos = nanos;
        this.startedNanos = nanos.getAsLong();
        this.lastDrawNanos = startedNanos;
    }

    public synchronized void advance() {
        long now = nanos.getAsLong();
        if (done == 0) {
            firstRecordNanos = now;
        }
        done++;
        if (now - lastDrawNanos >= 250_000_000L) {
            lastDrawNanos = now;
            draw();
        }
    }

    public synchronized long done() {
        return done;
    }

    public double seconds() {
        return (nanos.getAsLong() - startedNanos) / 1e9;
    }

    /** Records per second since the first record. */
    public synchronized long rate() {
        double s = done == 0 ? 0 : (nanos.getAsLong() - firstRecordNanos) / 1e9;
        return s <= 0 ? done : Math.round(done / s);
    }

    /** Draws the bar at its end and prints the records read and the rate. */
    public synchronized void finish() {
        draw();
        err.println();
        err.println(String.format(Locale.ROOT, "%s %,d records of %s in %.1f s (%,d records/s from the first record)",
                past, done, label, seconds(), rate()));
        err.flush();
    }

    private void draw() {
        double share = total == 0 ? 1.0 : Math.min(1.0, (double) done / total);
        int filled = (int) Math.round(share * WIDTH);
        err.print(String.format(Locale.ROOT, "\r%s %s [%s%s] %3d%% %,d/%,d", verb, label, "#".repeat(filled),
                "-".repeat(WIDTH - filled), Math.round(share * 100), done, total));
        err.flush();
    }
}
