package io.healthmesh.follow;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Stand-in of the follow API until the follow branch lands. */
public final class FollowedState {
    private final Map<String, GroupView> groups;

    private FollowedState(Map<String, GroupView> groups) {
        this.groups = groups;
    }

    public Map<String, GroupView> groups() {
        return groups;
    }

    public Optional<GroupView> group(String id) {
        return Optional.ofNullable(groups.get(id));
    }

    public static FollowedState of(Collection<GroupView> views) {
        Map<String, GroupView> m = new TreeMap<>();
        views.forEach(v -> m.put(v.groupId(), v));
        return new FollowedState(java.util.Collections.unmodifiableMap(m));
    }
}
