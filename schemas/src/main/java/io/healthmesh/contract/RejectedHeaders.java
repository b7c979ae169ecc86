package io.healthmesh.contract;

/**
 * Header names on {@code healthmesh.rejected} records. A rejected record keeps its original key and
 * value bytes; these headers say where it came from and why it was refused.
 */
public final class RejectedHeaders {

    /** Machine-readable reason: {@code UNDECODABLE}, {@code UNKNOWN_SCHEMA}, {@code INVALID_DEFINITION}, {@code UNKNOWN_TARGET}, ... */
    public static final String REASON = "healthmesh.reason";
    /** Human-readable detail, e.g. every validation violation joined by {@code "; "}. */
    public static final String DETAIL = "healthmesh.detail";
    /** Topic the record was read from. */
    public static final String SOURCE_TOPIC = "healthmesh.source.topic";
    /** Partition the record was read from (decimal text). */
    public static final String SOURCE_PARTITION = "healthmesh.source.partition";
    /** Offset the record was read from (decimal text). */
    public static final String SOURCE_OFFSET = "healthmesh.source.offset";
    /** Component that rejected it: {@code prober/<region>/<id>} or {@code aggregator}. */
    public static final String REJECTED_BY = "healthmesh.rejected.by";

    private RejectedHeaders() {
    }
}
