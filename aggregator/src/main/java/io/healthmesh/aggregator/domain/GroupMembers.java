package io.healthmesh.aggregator.domain;

import io.healthmesh.core.health.HealthStatus;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * What is stored per group: its members and their overall statuses. Immutable; a target joins or updates with
 * {@link #with}, leaves with {@link #without}.
 */
public record GroupMembers(String groupId, SortedMap<String, HealthStatus> members) {

    public GroupMembers {
        requireNonNull(groupId, "groupId");
        members = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(members, "members")));
    }

    /** A group with no members yet. */
    public static GroupMembers empty(String groupId) {
        return new GroupMembers(groupId, new TreeMap<>());
    }

    public GroupMembers with(String targetId, HealthStatus status) {
        requireNonNull(targetId, "targetId");
        requireNonNull(status, "status");
        TreeMap<String, HealthStatus> next = new TreeMap<>(members);
        next.put(targetId, status);
        return new GroupMembers(groupId, next);
    }

    public GroupMembers without(String targetId) {
        if (!members.containsKey(targetId)) {
            return this;
        }
        TreeMap<String, HealthStatus> next = new TreeMap<>(members);
        next.remove(targetId);
        return new GroupMembers(groupId, next);
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** The routing verdict of these members. */
    public GroupVerdict verdict() {
        return FailOpenPolicy.evaluate(members);
    }

    /** Unmodifiable view, for callers that want a plain map. */
    public Map<String, HealthStatus> asMap() {
        return members;
    }
}
