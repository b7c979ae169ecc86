package io.healthmesh.contract.serde;

import io.healthmesh.core.health.GroupCounts;

/**
 * What a status page shows of a {@link io.healthmesh.schema.GroupHealth}, read by {@link GroupRoutingDeserializer}
 * without decoding its routable list.
 *
 * @param groupId  the group
 * @param failOpen true when no member is HEALTHY or DISABLED, so every member is routed to
 * @param members  how many members the group has
 * @param healthy  how many are HEALTHY
 * @param disabled how many are DISABLED
 * @param failOpenReason why the group fails open ({@code NO_HEALTHY_MEMBER}, {@code BELOW_MIN_HEALTHY}), null when it
 *     does not or when the writer predates the field
 */
public record GroupRouting(String groupId, boolean failOpen, int members, int healthy, int disabled,
                           String failOpenReason) {

    /** A group event without a fail-open reason (written before the field existed, or not failing open). */
    public GroupRouting(String groupId, boolean failOpen, int members, int healthy, int disabled) {
        this(groupId, failOpen, members, healthy, disabled, null);
    }

    /**
     * How many members the group routes to, as the contract defines it: every member when it fails open, else its
     * HEALTHY and DISABLED ones (what the event's routable list holds, or its first ids when truncated).
     */
    public int routable() {
        return GroupCounts.servedCount(failOpen, members, healthy + disabled);
    }
}
