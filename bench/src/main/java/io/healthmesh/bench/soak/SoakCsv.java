package io.healthmesh.bench.soak;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak's series as CSV, one row per sample, and back: a written file can be judged and drawn again
 * ({@code bench soak --judge FILE}) without running the soak.
 */
public final class SoakCsv {

    /** The header row; the order of the columns is the order of {@link #row}. */
    public static final String HEADER = "seconds,prober_pid,prober_heap_mib,prober_rss_mib,prober_threads,"
            + "prober_fds_held,prober_fds_open,aggregator_pid,aggregator_heap_mib,aggregator_rss_mib,"
            + "aggregator_threads,aggregator_fds_held,aggregator_fds_open,"
            + "prober_lag,aggregator_lag,events,false_events,stale_events,flapping_flips,load1,restart";

    /**
     * The header of files written before descriptors were counted as held and open: their one count per role was
     * every open descriptor, and is read as that, with the held count unknown (such a file cannot be judged for it).
     */
    static final String OPEN_ONLY_HEADER = "seconds,prober_pid,prober_heap_mib,prober_rss_mib,prober_threads,"
            + "prober_fds,aggregator_pid,aggregator_heap_mib,aggregator_rss_mib,aggregator_threads,aggregator_fds,"
            + "prober_lag,aggregator_lag,events,false_events,stale_events,flapping_flips,load1,restart";
    /** Rows read at most: a day sampled every second. */
    static final int MAX_ROWS = 86_400;

    private SoakCsv() {
    }

    /** Writes {@code samples} to {@code file}, replacing it. */
    public static void write(Path file, List<SoakSample> samples) throws IOException {
        try (Writer out = Files.newBufferedWriter(file)) {
            out.write(HEADER);
            out.write('\n');
            for (SoakSample s : samples) {
                out.write(row(s));
                out.write('\n');
            }
        }
    }

    /** One sample as a CSV row. */
    static String row(SoakSample s) {
        return String.format(Locale.ROOT, "%.1f,%s,%s,%d,%d,%d,%d,%d,%d,%.2f,%s", s.seconds(),
                facts(s.prober()), facts(s.aggregator()), s.proberLag(), s.aggregatorLag(), s.events(),
                s.falseEvents(), s.staleEvents(), s.flappingFlips(), s.load1(), s.restart());
    }

    private static String facts(RoleFacts f) {
        return String.format(Locale.ROOT, "%d,%.1f,%.1f,%d,%d,%d", f.pid(), f.heapMib(), f.rssMib(), f.threads(),
                f.heldFds(), f.openFds());
    }

    /**
     * Reads a file {@link #write} wrote.
     *
     * @throws IllegalArgumentException naming the line, for a header or row of another shape
     */
    public static List<SoakSample> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        boolean openOnly = !lines.isEmpty() && lines.get(0).equals(OPEN_ONLY_HEADER);
        if (lines.isEmpty() || !(lines.get(0).equals(HEADER) || openOnly)) {
            throw new IllegalArgumentException(file + ": line 1 (expected the header " + HEADER + ")");
        }
        if (lines.size() - 1 > MAX_ROWS) {
            throw new IllegalArgumentException(file + ": " + (lines.size() - 1) + " rows (expected: at most "
                    + MAX_ROWS + ")");
        }
        List<SoakSample> samples = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                samples.add(parse(file, i + 1, lines.get(i), openOnly ? 5 : 6));
            }
        }
        return samples;
    }

    /** One row, whose roles have {@code perRole} columns each (6, or 5 in a file of {@link #OPEN_ONLY_HEADER}). */
    private static SoakSample parse(Path file, int line, String text, int perRole) {
        String[] c = text.split(",", -1);
        int columns = 9 + 2 * perRole;
        if (c.length != columns) {
            throw new IllegalArgumentException(file + ": line " + line + " has " + c.length + " columns (expected: "
                    + columns + ")");
        }
        int at = 1 + 2 * perRole;
        try {
            return new SoakSample(Double.parseDouble(c[0]), facts(c, 1, perRole), facts(c, 1 + perRole, perRole),
                    Long.parseLong(c[at]), Long.parseLong(c[at + 1]), Long.parseLong(c[at + 2]),
                    Long.parseLong(c[at + 3]), Long.parseLong(c[at + 4]), Long.parseLong(c[at + 5]),
                    Double.parseDouble(c[at + 6]), c[at + 7]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + ": line " + line + ": " + e.getMessage()
                    + " (expected: numbers in every column but the last)", e);
        }
    }

    private static RoleFacts facts(String[] c, int at, int perRole) {
        boolean both = perRole == 6;
        return new RoleFacts(Long.parseLong(c[at]), Double.parseDouble(c[at + 1]), Double.parseDouble(c[at + 2]),
                Integer.parseInt(c[at + 3]), both ? Integer.parseInt(c[at + 4]) : -1,
                Integer.parseInt(c[at + (both ? 5 : 4)]));
    }
}
