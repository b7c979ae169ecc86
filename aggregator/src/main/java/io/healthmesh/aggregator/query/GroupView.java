package io.healthmesh.aggregator.query;

import io.healthmesh.aggregator.domain.GroupMembers;
import io.healthmesh.aggregator.domain.GroupVerdict;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shape of a group: members with their statuses, counts, fail-open and the routable set. */
public record GroupView(String groupId, boolean failOpen, List<String> routable, int members, int healthy,
                        int unhealthy, int detecting, int disabled, Map<String, String> statuses) {

    public static GroupView of(GroupMembers group) {
        GroupVerdict v = group.verdict();
        Map<String, String> statuses = new LinkedHashMap<>();
        group.members().forEach((id, status) -> statuses.put(id, status.name()));
        return new GroupView(group.groupId(), v.failOpen(), v.routable(), v.members(), v.healthy(), v.unhealthy(),
                v.detecting(), v.disabled(), statuses);
    }

    /** Only what a load balancer needs. */
    public record Routable(String groupId, boolean failOpen, List<String> routable) {
    }

    public Routable routing() {
        return new Routable(groupId, failOpen, routable);
    }
}
