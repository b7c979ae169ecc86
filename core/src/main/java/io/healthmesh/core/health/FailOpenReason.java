package io.healthmesh.core.health;

/**
 * Why a group fails open (routes to every member): the reason a group event carries, so that the status page, the
 * notifier and the data planes can say which rule opened the group.
 */
public enum FailOpenReason {
    /** The group has members and none of them is HEALTHY or DISABLED (the rule without a threshold). */
    NO_HEALTHY_MEMBER,
    /**
     * Some members are HEALTHY or DISABLED, but fewer than the group's {@link PanicThreshold} asks for, or not yet
     * enough to leave panic (the threshold plus its margin).
     */
    BELOW_MIN_HEALTHY
}
