package io.healthmesh.core.health;

import static java.util.Objects.requireNonNull;

/**
 * What a group's routing depends on: its counters, its panic threshold and the current fail-open decision (the
 * previous decision is an input of the next one: hysteresis). The aggregator stores one per group and replay rebuilds
 * them from the recorded events; both move it with {@link #move} (a member changed) and {@link #withThreshold} (the
 * group's policy changed), so the two give the same answer from the same records. The decision itself is
 * {@link GroupCounts#failOpenReason}.
 *
 * @param failOpenReason why the group fails open, {@code null} when it does not
 */
public record GroupState(GroupCounts counts, PanicThreshold threshold, FailOpenReason failOpenReason) {

    /** No member, no threshold. */
    public static final GroupState EMPTY = new GroupState(GroupCounts.EMPTY, PanicThreshold.NONE, null);

    public GroupState {
        requireNonNull(counts, "counts");
        requireNonNull(threshold, "threshold");
        if (counts.isEmpty() && failOpenReason != null) {
            throw new IllegalArgumentException("failOpenReason: " + failOpenReason + " (expected: none without members)");
        }
        if (failOpenReason == FailOpenReason.NO_HEALTHY_MEMBER && counts.routableByStatus() > 0) {
            throw new IllegalArgumentException("failOpenReason: " + failOpenReason + " with "
                    + counts.routableByStatus() + " routable members (expected: none routable)");
        }
    }

    /** The state of a group entering panic only by the rule (not by hysteresis): for groups read without history. */
    public static GroupState of(GroupCounts counts, PanicThreshold threshold) {
        return new GroupState(counts, threshold, counts.failOpenReason(threshold, false));
    }

    /** After one member moved from {@code before} to {@code after} ({@code null}: not a member). */
    public GroupState move(HealthStatus before, HealthStatus after) {
        GroupCounts next = counts.move(before, after);
        return new GroupState(next, threshold, next.failOpenReason(threshold, failOpen()));
    }

    /** After the group's threshold became {@code next} ({@link PanicThreshold#NONE}: the policy was deleted). */
    public GroupState withThreshold(PanicThreshold next) {
        return new GroupState(counts, requireNonNull(next, "next"), counts.failOpenReason(next, failOpen()));
    }

    public boolean failOpen() {
        return failOpenReason != null;
    }

    /** How many members are routed to: every member when failing open, else the HEALTHY and DISABLED ones. */
    public int routable() {
        return GroupCounts.servedCount(failOpen(), counts.members(), counts.routableByStatus());
    }

    /**
     * True when going from this state to {@code next}, one member having moved from {@code before} to {@code after}
     * (both {@code null} when only the threshold changed), changes what a group event says about routing: the
     * fail-open flag, its reason, or the routable set.
     */
    public boolean routingChangesTo(GroupState next, HealthStatus before, HealthStatus after) {
        if (failOpenReason != next.failOpenReason) {
            return true;
        }
        // the flag stays: the set changes when the member was served and no longer is, or the other way round
        return GroupCounts.served(before, failOpen()) != GroupCounts.served(after, failOpen());
    }
}
