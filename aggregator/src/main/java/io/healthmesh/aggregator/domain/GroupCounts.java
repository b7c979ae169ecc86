package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

/**
 * A group's counters, kept incrementally: one member joining, changing status or leaving moves them by one, so a
 * group of any size is updated in constant time (BEHAVIOUR.md section 3's rules, the same verdict as
 * {@link FailOpenPolicy} gives for the whole member set). The routable set itself is not held here: it is
 * {@linkplain #failOpen() every member} when the group fails open, else its HEALTHY and DISABLED members.
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

    /** True when the group has members and none is routable by status: every member is then routed to. */
    public boolean failOpen() {
        return members > 0 && routableByStatus() == 0;
    }

    /** How many members are routed to: every member when failing open, else the routable ones. */
    public int routable() {
        return failOpen() ? members : routableByStatus();
    }

    /**
     * True when one member moving from {@code before} to {@code after} ({@code null}: not a member) changes the
     * routable set or the fail-open flag of a group whose counters were these (what makes a group event).
     */
    public boolean routingChangesWhen(HealthStatus before, HealthStatus after) {
        GroupCounts next = move(before, after);
        if (failOpen() != next.failOpen()) {
            return true;
        }
        if (next.failOpen()) {
            // every member is routable on both sides: the set changes when one joins or leaves
            return (before == null) != (after == null);
        }
        return routable(before) != routable(after);
    }

    private static boolean routable(HealthStatus status) {
        return status != null && status.isRoutable();
    }
}
