package io.healthmesh.status.board;

import static java.util.Objects.requireNonNull;

/**
 * A group on the status page. {@code failOpen} and {@code routable} come from the group's last state event (what
 * routers follow); the member counts are counted from the targets' current state events, because a group event is
 * only emitted when the routable set or the flag changes and its counts can lag.
 *
 * @param failOpen {@code null} while no group event was read yet
 */
public record GroupRow(String id, Boolean failOpen, int routable, int members, int healthy, int unhealthy,
                       int detecting, int disabled, int stale) {

    public GroupRow {
        requireNonNull(id, "id");
    }

    /** True when the group's last event says every member is routed to because none is HEALTHY or DISABLED. */
    public boolean isFailOpen() {
        return Boolean.TRUE.equals(failOpen);
    }
}
