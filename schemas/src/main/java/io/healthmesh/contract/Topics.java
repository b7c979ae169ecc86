package io.healthmesh.contract;

import static java.util.Objects.requireNonNull;

/**
 * The topic names, in one place. Every name shares a configurable prefix (default {@code healthmesh.}).
 * {@code targets} and {@code probe-results} must have the same partition count (co-partitioned).
 */
public record Topics(String prefix) {

    public static final String DEFAULT_PREFIX = "healthmesh.";
    public static final Topics DEFAULT = new Topics(DEFAULT_PREFIX);
    /** Schema storage of the embedded registry (Confluent's default name). */
    public static final String SCHEMAS = "_schemas";
    /** Partitions of targets and probe-results when healthmesh creates them. */
    public static final int DEFAULT_PARTITIONS = 6;

    public Topics {
        requireNonNull(prefix, "prefix");
    }

    /** Target definitions, compacted, key = target id. */
    public String targets() {
        return prefix + "targets";
    }

    /** Raw probe results, key = target id, same partition count as {@link #targets()}. */
    public String probeResults() {
        return prefix + "probe-results";
    }

    /** Target state events, compacted, key = target id. */
    public String healthState() {
        return prefix + "health-state";
    }

    /** Group state events, compacted, key = group id. */
    public String groupState() {
        return prefix + "group-state";
    }

    /** Records that could not be decoded or validated, original bytes, reason in headers. */
    public String rejected() {
        return prefix + "rejected";
    }
}
