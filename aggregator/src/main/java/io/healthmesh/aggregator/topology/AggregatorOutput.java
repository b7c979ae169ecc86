package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.schema.TargetHealth;

import static java.util.Objects.requireNonNull;

/**
 * What the target-health processor forwards; the topology routes each kind to its own sink. One sealed type because
 * a processor has a single output type, and the kinds go to topics with different serdes.
 */
sealed interface AggregatorOutput permits AggregatorOutput.HealthEvent, AggregatorOutput.MembershipChange,
        AggregatorOutput.Rejected {

    /** A state event for {@code healthmesh.health-state}; {@code event} null is the tombstone of a deleted target. */
    record HealthEvent(TargetHealth event) implements AggregatorOutput {
    }

    /**
     * A target joining, updating in or leaving a group (the record key is the group id).
     *
     * @param status the target's overall status; {@code null} when it leaves the group
     */
    record MembershipChange(String targetId, HealthStatus status) implements AggregatorOutput {
        public MembershipChange {
            requireNonNull(targetId, "targetId");
        }

        boolean leaves() {
            return status == null;
        }
    }

    /** An input record refused: its original value bytes (the key and the reason headers travel on the record). */
    record Rejected(byte[] value) implements AggregatorOutput {
    }
}
