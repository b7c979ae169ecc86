package io.healthmesh.bench.soak;

/** The per-process series the soak samples, each with its unit and the name of its CSV column suffix. */
public enum RoleMetric {
    HEAP("heap after GC", "MiB", "heap_mib", true),
    RSS("RSS", "MiB", "rss_mib", true),
    THREADS("threads", "", "threads", true),
    /** Descriptors held since the previous sample: judged for growth, as a leak accumulates there. */
    FDS("held descriptors", "", "fds_held", true),
    /**
     * Every open descriptor, a socket per probe in flight included: not judged for growth (it follows the probes'
     * latency), but what it holds beyond {@link #FDS} is judged against the probes the schedule can have in flight.
     */
    OPEN_FDS("open descriptors", "", "fds_open", false);

    private final String title;
    private final String unit;
    private final String column;
    private final boolean judgedForGrowth;

    RoleMetric(String title, String unit, String column, boolean judgedForGrowth) {
        this.title = title;
        this.unit = unit;
        this.column = column;
        this.judgedForGrowth = judgedForGrowth;
    }

    public String title() {
        return title;
    }

    public String unit() {
        return unit;
    }

    /** The CSV column suffix: {@code prober_<column>}, {@code aggregator_<column>}. */
    public String column() {
        return column;
    }

    /** Whether the verdict fits a line through each lifetime of this series and bounds its rise. */
    public boolean judgedForGrowth() {
        return judgedForGrowth;
    }
}
