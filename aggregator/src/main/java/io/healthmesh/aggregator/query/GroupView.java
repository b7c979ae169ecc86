package io.healthmesh.aggregator.query;

import io.healthmesh.aggregator.topology.RoutableList;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.GroupState;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shape of a group: counts, fail-open, the first page of its routable set and of its members' statuses
 * ({@code next*} name the cursor of the following page, null when the page holds the rest), and why it fails open
 * ({@code failOpenReason}, null when it does not).
 */
public record GroupView(String groupId, boolean failOpen, List<String> routable, int routableTotal,
                        String routableNext, int members, int healthy, int unhealthy, int detecting, int disabled,
                        Map<String, String> statuses, String statusesNext, String failOpenReason) {

    public static GroupView of(String groupId, GroupState state, RoutableList.Page routable,
                               RoutableList.Page members) {
        GroupCounts counts = state.counts();
        Map<String, String> statuses = new LinkedHashMap<>();
        for (int i = 0; i < members.ids().size(); i++) {
            statuses.put(members.ids().get(i), members.statuses().get(i).name());
        }
        return new GroupView(groupId, state.failOpen(), routable.ids(), state.routable(), routable.next(),
                counts.members(), counts.healthy(), counts.unhealthy(), counts.detecting(), counts.disabled(), statuses,
                members.next(), state.failOpen() ? state.failOpenReason().name() : null);
    }

    /** One page of what a load balancer needs: {@code GET /groups/{id}/routable?after=&limit=}. */
    public record Routable(String groupId, boolean failOpen, List<String> routable, int routableTotal, String next) {
        public static Routable of(String groupId, GroupState state, RoutableList.Page page) {
            return new Routable(groupId, state.failOpen(), page.ids(), state.routable(), page.next());
        }
    }

    /** One member and its status. */
    public record Member(String id, String status) {
    }

    /** One page of members: {@code GET /groups/{id}/members?after=&limit=}. */
    public record Members(String groupId, int members, List<Member> page, String next) {
        public static Members of(String groupId, GroupState counts, RoutableList.Page page) {
            List<Member> list = new java.util.ArrayList<>(page.ids().size());
            for (int i = 0; i < page.ids().size(); i++) {
                list.add(new Member(page.ids().get(i), page.statuses().get(i).name()));
            }
            return new Members(groupId, counts.counts().members(), list, page.next());
        }
    }
}
