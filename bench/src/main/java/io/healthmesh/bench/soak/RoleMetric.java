package io.healthmesh.bench.soak;

/** The per-process series the soak samples, each with its unit and the name of its CSV column suffix. */
public enum RoleMetric {
    HEAP("heap after GC", "MiB", "heap_mib"),
    RSS("RSS", "MiB", "rss_mib"),
    THREADS("threads", "", "threads"),
    FDS("open descriptors", "", "fds");

    private final String title;
    private final String unit;
    private final String column;

    RoleMetric(String title, String unit, String column) {
        this.title = title;
        this.unit = unit;
        this.column = column;
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
}
