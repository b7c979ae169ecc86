package io.healthmesh.follow;

import java.util.List;

/** Stand-in of the follow API until the follow branch lands. */
public record GroupView(String groupId, boolean failOpen, List<Member> members, String version,
                        boolean keptLastServed) {
    public List<Member> served() {
        return members.stream().filter(Member::served).toList();
    }
}
