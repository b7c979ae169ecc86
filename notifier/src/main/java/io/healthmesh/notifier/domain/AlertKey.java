package io.healthmesh.notifier.domain;

import static java.util.Objects.requireNonNull;

/**
 * What an alert is about: a target (from {@code health-state}) or a group (from {@code group-state}).
 *
 * @param kind target or group
 * @param id the target id or the group id
 */
public record AlertKey(Kind kind, String id) {

    /** The two things the notifier alerts on. */
    public enum Kind {
        /** A target whose status matches a route's statuses. */
        TARGET,
        /** A group in fail-open (no member HEALTHY or DISABLED). */
        GROUP
    }

    public AlertKey {
        requireNonNull(kind, "kind");
        requireNonNull(id, "id");
    }

    public static AlertKey target(String id) {
        return new AlertKey(Kind.TARGET, id);
    }

    public static AlertKey group(String id) {
        return new AlertKey(Kind.GROUP, id);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + id;
    }
}
