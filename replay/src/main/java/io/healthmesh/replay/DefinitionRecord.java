package io.healthmesh.replay;

import io.healthmesh.aggregator.domain.TargetEssentials;

import static java.util.Objects.requireNonNull;

/**
 * One record of the targets topic, as the aggregator would have applied it: a valid definition's essentials, or a
 * deletion. Invalid definitions are left out by the caller (the aggregator rejects them and keeps the one in force).
 *
 * @param timestampMs the record's timestamp: the aggregator reads definitions and results in timestamp order
 * @param offset the record's offset, named in messages about a definition changed inside the range
 * @param essentials the definition, or {@code null} for a tombstone (the target was deleted)
 */
public record DefinitionRecord(String targetId, long timestampMs, long offset, TargetEssentials essentials) {

    public DefinitionRecord {
        requireNonNull(targetId, "targetId");
        if (essentials != null && !essentials.id().equals(targetId)) {
            throw new IllegalArgumentException("id: " + essentials.id() + " (expected: " + targetId + ")");
        }
    }

    public boolean isDeletion() {
        return essentials == null;
    }
}
