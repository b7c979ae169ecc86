package io.healthmesh.core.health;

/**
 * A group's counters and the routing rule over them (BEHAVIOUR.md section 3): the routable set is the group's HEALTHY
 * and DISABLED members; when the group has members and none of them is HEALTHY or DISABLED it fails open and every
 * member is routed to (000: "if all backends are abnormal, requests go to all backends"; 002: "best-effort mode").
 *
 * <p>This is the one place that rule is decided. The aggregator's topology keeps these counters per group and emits a
 * group event when {@link #routingChangesWhen} says so; replay counts a group's time in {@link #failOpen()} with the
 * same counters; a data plane that follows the group events serves a member when {@link #served} says so. The counters
 * are kept incrementally: one member joining, changing status or leaving {@linkplain #move moves} them by one, so a
 * group of any size is updated in constant time. The member ids are not held here.
 *
 * <p>The decision is a pure function of the counters, kept apart from the per-target state machine like Envoy's panic
 * threshold. A group's {@link PanicThreshold} (fail open below a share or a number of routable members, with
 * hysteresis) is a further input to {@link #failOpenReason}; {@link GroupState} carries the counters, the threshold
 * and the previous decision, and is what the aggregator stores and replay rebuilds.
 */
public record GroupCounts(int members, int healthy, int unhealthy, int detecting, int disabled) {

    /** A group with no member. */
    public static final GroupCounts EMPTY = new GroupCounts(0, 0, 0, 0, 0);

    public GroupCounts {
        if (members < 0 || healthy < 0 || unhealthy < 0 || detecting < 0 || disabled < 0
                || healthy + unhealthy + detecting + disabled != members) {
            throw new IllegalArgumentException("counts: members " + members + ", healthy " + healthy + ", unhealthy "
                    + unhealthy + ", detecting " + detecting + ", disabled " + disabled
                    + " (expected: non-negative, members the sum of the others)");
        }
    }

    /**
     * True when a member with this status ({@code null}: not a member) is routed to in a group whose fail-open flag
     * is {@code groupFailOpen}: every member of a group failing open, else the members routable by status.
     */
    public static boolean served(HealthStatus memberStatus, boolean groupFailOpen) {
        return memberStatus != null && (groupFailOpen || memberStatus.isRoutable());
    }

    /**
     * How many members a group routes to, given its fail-open flag, its size and how many of its members are
     * routable by status (HEALTHY or DISABLED): the size of the set {@link #served} describes.
     */
    public static int servedCount(boolean groupFailOpen, int members, int routableByStatus) {
        return groupFailOpen ? members : routableByStatus;
    }

    /**
     * The counters after one member moved from {@code before} to {@code after} ({@code null}: not a member).
     *
     * @throws IllegalArgumentException when a counter would go below zero (the member was not counted as before)
     */
    public GroupCounts move(HealthStatus before, HealthStatus after) {
        int[] c = {members, healthy, unhealthy, detecting, disabled};
        add(c, before, -1);
        add(c, after, +1);
        return new GroupCounts(c[0], c[1], c[2], c[3], c[4]);
    }

    private static void add(int[] c, HealthStatus status, int delta) {
        if (status == null) {
            return;
        }
        c[0] += delta;
        switch (status) {
            case HEALTHY -> c[1] += delta;
            case UNHEALTHY -> c[2] += delta;
            case DETECTING -> c[3] += delta;
            case DISABLED -> c[4] += delta;
        }
    }

    public boolean isEmpty() {
        return members == 0;
    }

    /** Members with a routable status (HEALTHY or DISABLED). */
    public int routableByStatus() {
        return healthy + disabled;
    }

    /**
     * True when the group has members and none is routable by status: every member is then routed to. This is the
     * decision without a panic threshold ({@link #failOpenReason} with {@link PanicThreshold#NONE}).
     */
    public boolean failOpen() {
        return failOpenReason(PanicThreshold.NONE, false) != null;
    }

    /**
     * The fail-open rule: why a group with these counters fails open under {@code threshold}, or {@code null} when it
     * routes to its HEALTHY and DISABLED members only. {@link FailOpenReason#NO_HEALTHY_MEMBER} when it has members
     * and none is routable by status; {@link FailOpenReason#BELOW_MIN_HEALTHY} when the routable ones are below the
     * threshold, or when the group was failing open ({@code wasFailOpen}) and they are not yet at or above the
     * threshold plus its margin (hysteresis). With {@link PanicThreshold#NONE} the previous decision plays no part.
     */
    public FailOpenReason failOpenReason(PanicThreshold threshold, boolean wasFailOpen) {
        if (members == 0) {
            return null;
        }
        int routable = routableByStatus();
        if (routable == 0) {
            return FailOpenReason.NO_HEALTHY_MEMBER;
        }
        if (threshold.below(routable, members) || (wasFailOpen && !threshold.clearOf(routable, members))) {
            return FailOpenReason.BELOW_MIN_HEALTHY;
        }
        return null;
    }

    /** How many members are routed to: every member when failing open, else the routable ones. */
    public int routable() {
        return servedCount(failOpen(), members, routableByStatus());
    }

    /**
     * True when one member moving from {@code before} to {@code after} ({@code null}: not a member) changes the
     * routable set or the fail-open flag of a group whose counters were these (what makes a group event).
     */
    public boolean routingChangesWhen(HealthStatus before, HealthStatus after) {
        GroupState state = GroupState.of(this, PanicThreshold.NONE);
        return state.routingChangesTo(state.move(before, after), before, after);
    }
}
