package io.healthmesh.status.board;

import static java.util.Objects.requireNonNull;

/**
 * A group on the status page. {@code failOpen} and {@code routable} come from the group's last state event (what
 * routers follow); the member counts are counted from the targets' current state events, because a group event is
 * only emitted when the routable set or the flag changes and its counts can lag.
 *
 * @param failOpen {@code null} while no group event was read yet
 * @param failOpenReason why the last group event says it fails open ({@code NO_HEALTHY_MEMBER},
 *     {@code BELOW_MIN_HEALTHY}), null when it does not
 */
public record GroupRow(String id, Boolean failOpen, int routable, int members, int healthy, int unhealthy,
                       int detecting, int disabled, int stale, String failOpenReason) {

    public GroupRow {
        requireNonNull(id, "id");
    }

    /** A row without a fail-open reason. */
    public GroupRow(String id, Boolean failOpen, int routable, int members, int healthy, int unhealthy, int detecting,
                    int disabled, int stale) {
        this(id, failOpen, routable, members, healthy, unhealthy, detecting, disabled, stale, null);
    }

    /** True when the group's last event says every member is routed to because none is HEALTHY or DISABLED. */
    public boolean isFailOpen() {
        return Boolean.TRUE.equals(failOpen);
    }
}
