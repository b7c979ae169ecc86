package io.healthmesh.follow;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/** An immutable snapshot of every group's view, by group id. */
public final class FollowedState {

    /** No group at all: what a follower holds before it has caught up. */
    public static final FollowedState EMPTY = new FollowedState(new TreeMap<>());

    private final Map<String, GroupView> groups;

    private FollowedState(TreeMap<String, GroupView> groups) {
        this.groups = Collections.unmodifiableMap(groups);
    }

    /** A state holding these views (group ids must differ). */
    public static FollowedState of(Collection<GroupView> groups) {
        TreeMap<String, GroupView> byId = new TreeMap<>();
        for (GroupView g : groups) {
            if (byId.put(g.groupId(), g) != null) {
                throw new IllegalArgumentException("group " + g.groupId() + " given twice");
            }
        }
        return new FollowedState(byId);
    }

    static FollowedState ofSorted(TreeMap<String, GroupView> groups) {
        return new FollowedState(groups);
    }

    /** Every group's view, sorted by group id. */
    public Map<String, GroupView> groups() {
        return groups;
    }

    public Optional<GroupView> group(String groupId) {
        return Optional.ofNullable(groups.get(requireNonNull(groupId, "groupId")));
    }

    @Override
    public String toString() {
        return "FollowedState[" + groups.size() + " groups]";
    }
}
