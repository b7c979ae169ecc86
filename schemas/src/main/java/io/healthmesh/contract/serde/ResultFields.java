package io.healthmesh.contract.serde;

import io.healthmesh.schema.ProbeOutcome;

/**
 * The fields of a {@link io.healthmesh.schema.ProbeResult} the aggregator applies and checks, read by
 * {@link ResultFieldsDeserializer}; the others (protocol, connection and TLS times, HTTP status, scheduling lag) are
 * skipped in the bytes.
 *
 * @param detail {@code null} when the result has none
 */
public record ResultFields(String targetId, long generation, String region, String proberId, ProbeOutcome outcome,
                           long startedAtMs, long latencyMicros, String detail) {
}
