package io.healthmesh.contract.group;

import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.core.target.Limits;
import io.healthmesh.schema.GroupPolicy;

import static java.util.Objects.requireNonNull;

/**
 * Maps a {@link GroupPolicy} record to the {@link PanicThreshold} it sets, and back, with every rule checked: the
 * aggregator rejects a record this refuses (with its bytes, on the rejected topic), and {@code healthmesh groups set}
 * refuses to write one, with the same message.
 */
public final class GroupPolicies {

    /** Largest encoded policy record (wire header included), checked before decoding; a real one is under 300 bytes. */
    public static final int MAX_POLICY_BYTES = 1024;

    private GroupPolicies() {
    }

    /**
     * The threshold {@code policy} sets for the group named by the record key {@code key}.
     *
     * @throws IllegalArgumentException naming the field, its value and what is expected
     */
    public static PanicThreshold threshold(String key, GroupPolicy policy) {
        requireNonNull(policy, "policy");
        String groupId = policy.getGroupId();
        checkGroupId(groupId);
        if (!groupId.equals(key)) {
            throw new IllegalArgumentException("groupId: " + groupId + " (expected: the record key " + key + ")");
        }
        if (policy.getMinHealthyPercent() == null && policy.getMinHealthyCount() == null) {
            throw new IllegalArgumentException("minHealthyPercent, minHealthyCount: both absent (expected: at least "
                    + "one; a tombstone deletes a group's policy)");
        }
        return new PanicThreshold(policy.getMinHealthyPercent(), policy.getMinHealthyCount(),
                orDefault(policy.getLeaveMarginPercent(), PanicThreshold.DEFAULT_MARGIN_PERCENT),
                orDefault(policy.getLeaveMarginCount(), PanicThreshold.DEFAULT_MARGIN_COUNT));
    }

    /** The record that sets {@code threshold} on {@code groupId}, checked as {@link #threshold} reads it. */
    public static GroupPolicy toAvro(String groupId, PanicThreshold threshold) {
        checkGroupId(groupId);
        if (threshold.isNone()) {
            throw new IllegalArgumentException("threshold: none (expected: a percentage or a count; a tombstone "
                    + "deletes a group's policy)");
        }
        return GroupPolicy.newBuilder()
                .setGroupId(groupId)
                .setMinHealthyPercent(threshold.minHealthyPercent())
                .setMinHealthyCount(threshold.minHealthyCount())
                .setLeaveMarginPercent(threshold.leaveMarginPercent())
                .setLeaveMarginCount(threshold.leaveMarginCount())
                .build();
    }

    /** The rule of a group name, the same as a target definition's {@code group}. */
    public static void checkGroupId(String groupId) {
        if (groupId == null || groupId.isEmpty()) {
            throw new IllegalArgumentException("groupId: " + (groupId == null ? "null" : "empty")
                    + " (expected: 1.." + Limits.MAX_ID_LENGTH + " characters)");
        }
        if (groupId.length() > Limits.MAX_ID_LENGTH) {
            throw new IllegalArgumentException("groupId: " + groupId.length() + " characters (expected: at most "
                    + Limits.MAX_ID_LENGTH + ")");
        }
        if (groupId.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("groupId: contains a control character (expected: none)");
        }
    }

    private static int orDefault(Integer value, int otherwise) {
        return value == null ? otherwise : value;
    }
}
