package io.healthmesh.follow;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A group as a data plane should hold it: every member with its place and state, and which of them are served.
 * <p>
 * {@code version} is a hash of the view's content, so two followers that have read the same state give the same
 * version whatever offsets they read it at: a client that moves from one replica to another sees no change.
 *
 * @param failOpen       the fail-open flag of the group's latest event (false before the first event)
 * @param members        sorted by target id
 * @param keptLastServed true when the served set computed from the records was empty while the group had served
 *                       members before: the view then keeps serving those (still defined) members, because a
 *                       follower never empties a group through its own lag or a partial read
 * @param failOpenReason why the latest event fails open ({@code NO_HEALTHY_MEMBER}, {@code BELOW_MIN_HEALTHY}),
 *                       null when it does not or the event names no reason; not part of the version: it changes
 *                       nothing a data plane serves
 */
public record GroupView(String groupId, boolean failOpen, List<Member> members, String version,
                        boolean keptLastServed, String failOpenReason) {

    public GroupView {
        requireNonNull(groupId, "groupId");
        members = List.copyOf(requireNonNull(members, "members"));
        requireNonNull(version, "version");
    }

    /** A view whose version is computed from its content (what the follower builds; tests may use it too). */
    public static GroupView of(String groupId, boolean failOpen, List<Member> members, boolean keptLastServed) {
        return of(groupId, failOpen, null, members, keptLastServed);
    }

    /** The same, with the reason the group fails open. */
    public static GroupView of(String groupId, boolean failOpen, String failOpenReason, List<Member> members,
                               boolean keptLastServed) {
        List<Member> sorted = members.stream()
                .sorted(java.util.Comparator.comparing(Member::targetId)).toList();
        return new GroupView(groupId, failOpen, sorted, ViewVersion.of(groupId, failOpen, sorted, keptLastServed),
                keptLastServed, failOpen ? failOpenReason : null);
    }

    /** The members to serve, in target id order. */
    public List<Member> served() {
        return members.stream().filter(Member::served).toList();
    }
}
