package io.healthmesh.aggregator.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What {@link FailOpenPolicy} decided for a group: the routable member ids (sorted), whether the group failed open,
 * and how many members are in each status.
 */
public record GroupVerdict(List<String> routable, boolean failOpen, int members, int healthy, int unhealthy,
                           int detecting, int disabled) {

    public GroupVerdict {
        routable = List.copyOf(requireNonNull(routable, "routable"));
    }

    /** True when routing differs: another routable set or another fail-open flag (what makes a group event). */
    public boolean routesDifferentlyFrom(GroupVerdict other) {
        return other == null || failOpen != other.failOpen || !routable.equals(other.routable);
    }
}
