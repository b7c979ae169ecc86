package io.healthmesh.prober.assign;

import io.healthmesh.core.target.TargetSpec;

/** What one record of the targets topic means to a prober. */
sealed interface DefinitionVerdict {

    /** A valid definition of {@code spec.id()}. */
    record Valid(TargetSpec spec) implements DefinitionVerdict {
    }

    /** A tombstone: the target is deleted. */
    record Deleted(String targetId) implements DefinitionVerdict {
    }

    /**
     * A record that can never become a definition. {@code targetId} is the record key when it has one
     * (so that a previously valid definition of that key stops being probed), else {@code null}.
     */
    record Rejected(String targetId, String reason, String detail) implements DefinitionVerdict {
    }

    /** The record could not be judged now (schema registry unreachable); read it again later. */
    record RetryLater(String detail) implements DefinitionVerdict {
    }
}
