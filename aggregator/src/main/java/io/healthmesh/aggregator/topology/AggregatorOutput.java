package io.healthmesh.aggregator.topology;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.schema.TargetHealth;

import static java.util.Objects.requireNonNull;

/**
 * What the target-health processor forwards; the topology routes each kind to its own sink. One sealed type because
 * a processor has a single output type, and the kinds go to topics with different serdes.
 */
sealed interface AggregatorOutput permits AggregatorOutput.HealthEvent, AggregatorOutput.GroupChange,
        AggregatorOutput.Rejected {

    /** A state event for {@code healthmesh.health-state}; {@code event} null is the tombstone of a deleted target. */
    record HealthEvent(TargetHealth event) implements AggregatorOutput {
    }

    /** What the group processor applies, keyed by group id: a member's change or the group's new threshold. */
    sealed interface GroupChange extends AggregatorOutput permits MembershipChange, ThresholdChange {
    }

    /**
     * A group's policy record changed: {@code threshold} is the one in force from now on ({@link PanicThreshold#NONE}
     * when the policy was deleted). The record key is the group id.
     */
    record ThresholdChange(PanicThreshold threshold) implements GroupChange {
        public ThresholdChange {
            requireNonNull(threshold, "threshold");
        }
    }

    /**
     * A target joining, updating in or leaving a group (the record key is the group id).
     *
     * @param status the target's overall status; {@code null} when it leaves the group
     */
    record MembershipChange(String targetId, HealthStatus status) implements GroupChange {
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
