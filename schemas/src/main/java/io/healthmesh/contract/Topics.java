package io.healthmesh.contract;

import static java.util.Objects.requireNonNull;

/**
 * The topic names, in one place. Every name shares a configurable prefix (default {@code healthmesh.}).
 * {@code targets} and {@code probe-results} must have the same partition count (co-partitioned).
 * <p>
 * The names are built once: the aggregator's processor and its status feed compare every record's topic with them,
 * and a name built per call was a string concatenation per record (6 % of the status feed's samples in
 * {@code StringConcatHelper} in a JFR profile). Equal prefixes make equal instances.
 */
public final class Topics {

    public static final String DEFAULT_PREFIX = "healthmesh.";
    public static final Topics DEFAULT = new Topics(DEFAULT_PREFIX);
    /** Schema storage of the embedded registry (Confluent's default name). */
    public static final String SCHEMAS = "_schemas";
    /** Partitions of targets and probe-results when healthmesh creates them. */
    public static final int DEFAULT_PARTITIONS = 6;

    private final String prefix;
    private final String targets;
    private final String probeResults;
    private final String healthState;
    private final String groupState;
    private final String rejected;
    private final String groups;
    private final String maintenance;
    private final String maintenanceAccepted;
    private final String endpoints;

    public Topics(String prefix) {
        this.prefix = requireNonNull(prefix, "prefix");
        this.targets = prefix + "targets";
        this.probeResults = prefix + "probe-results";
        this.healthState = prefix + "health-state";
        this.groupState = prefix + "group-state";
        this.rejected = prefix + "rejected";
        this.groups = prefix + "groups";
        this.maintenance = prefix + "maintenance";
        this.maintenanceAccepted = prefix + "maintenance-accepted";
        this.endpoints = prefix + "endpoints";
    }

    /** The prefix every name starts with. */
    public String prefix() {
        return prefix;
    }

    /** Target definitions, compacted, key = target id. */
    public String targets() {
        return targets;
    }

    /** Raw probe results, key = target id, same partition count as {@link #targets()}. */
    public String probeResults() {
        return probeResults;
    }

    /** Target state events, compacted, key = target id. */
    public String healthState() {
        return healthState;
    }

    /** Group state events, compacted, key = group id. */
    public String groupState() {
        return groupState;
    }

    /** Records that could not be decoded or validated, original bytes, reason in headers. */
    public String rejected() {
        return rejected;
    }

    /** Group policies (GroupPolicy: the panic threshold), compacted, key = group id. */
    public String groups() {
        return groups;
    }

    /** Maintenance windows, compacted, key = maintenance id; read whole by every aggregator, any partition count. */
    public String maintenance() {
        return maintenance;
    }

    /**
     * The maintenance windows the aggregator accepted (valid ones and tombstones, as written), compacted, key =
     * maintenance id; its global store reads this, never the users' topic. Internal: write {@link #maintenance()}.
     */
    public String maintenanceAccepted() {
        return maintenanceAccepted;
    }

    /**
     * The listeners each worker has bound, compacted, key = the worker's instance id: every prober denies what is
     * announced there (docs/SECURITY.md, "Egress policy").
     */
    public String endpoints() {
        return endpoints;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Topics other && prefix.equals(other.prefix);
    }

    @Override
    public int hashCode() {
        return prefix.hashCode();
    }

    @Override
    public String toString() {
        return "Topics[prefix=" + prefix + "]";
    }
}
