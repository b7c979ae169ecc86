package io.healthmesh.contract.serde;

import io.healthmesh.schema.ProbeOutcome;

/**
 * The three fields of a {@link io.healthmesh.schema.ProbeResult} a latency chart needs, read by
 * {@link ProbeSampleDeserializer} without decoding the rest of the record.
 *
 * @param startedAtMs   wall-clock start of the probe, epoch milliseconds
 * @param latencyMicros total probe duration in microseconds
 * @param outcome       what the probe found
 */
public record ProbeSample(long startedAtMs, long latencyMicros, ProbeOutcome outcome) {

    /** True when the probe succeeded. */
    public boolean success() {
        return outcome == ProbeOutcome.SUCCESS;
    }
}
