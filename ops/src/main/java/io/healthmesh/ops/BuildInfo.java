package io.healthmesh.ops;

import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Which healthmesh this is: the project version, the git commit it was built from and when it was built. The ops
 * module's build writes them into {@value #RESOURCE}; everything that shows a version (the {@code healthmesh
 * version} command, the line each role logs at start, the {@value #METRIC} gauge on every {@code /metrics}) reads
 * them from here, so that a rolling upgrade can be followed instance by instance.
 *
 * @param version the Maven project version, e.g. {@code 0.2.0}
 * @param commit the full git commit id, or {@value #UNKNOWN} when the build had no git checkout
 * @param builtAt the build time in UTC (ISO-8601), or {@value #UNKNOWN}
 */
public record BuildInfo(String version, String commit, String builtAt) {

    /** The classpath resource the build writes. */
    public static final String RESOURCE = "/io/healthmesh/ops/build-info.properties";
    /** The gauge that every role's {@code /metrics} carries, always 1, labelled with version and commit. */
    public static final String METRIC = "healthmesh_build_info";
    /** The info metric's name as the Prometheus client wants it: the exposition adds {@code _info}. */
    private static final String INFO_NAME = "healthmesh_build";
    /** What a field says when the build could not know it. */
    public static final String UNKNOWN = "unknown";

    private static final BuildInfo CURRENT = load();

    public BuildInfo {
        version = orUnknown(version);
        commit = orUnknown(commit);
        builtAt = orUnknown(builtAt);
    }

    /** The build this code belongs to. */
    public static BuildInfo current() {
        return CURRENT;
    }

    /** The commit shortened to 12 characters, as {@code git log --abbrev=12} shows it. */
    public String shortCommit() {
        return commit.length() > 12 && !UNKNOWN.equals(commit) ? commit.substring(0, 12) : commit;
    }

    /** One line for a log or a terminal: {@code healthmesh 0.2.0 (commit 1e687b29abcd, built 2026-...Z)}. */
    public String line() {
        return "healthmesh " + version + " (commit " + shortCommit() + ", built " + builtAt + ")";
    }

    /** The {@value #METRIC} gauge: value 1, labels {@code version} and {@code commit} (shortened). */
    InfoSnapshot gauge() {
        return InfoSnapshot.builder()
                .name(INFO_NAME)
                .help("The running healthmesh build: always 1, labelled with its version and git commit")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                        .labels(Labels.of("commit", shortCommit(), "version", version))
                        .build())
                .build();
    }

    static BuildInfo from(Properties p) {
        return new BuildInfo(p.getProperty("version"), p.getProperty("commit"), p.getProperty("built"));
    }

    private static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return from(p);
    }

    private static String orUnknown(String s) {
        return s == null || s.isBlank() || s.startsWith("${") ? UNKNOWN : s.strip();
    }
}
