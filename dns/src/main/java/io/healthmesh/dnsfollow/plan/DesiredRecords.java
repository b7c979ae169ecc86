package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The pure mapping from the followed state to what each name should answer: the addresses of its group's
 * {@linkplain GroupView#served() served} members (the group event's routable set; every member while the group is
 * fail-open, as the aggregator decided), filed as {@code A} or {@code AAAA} by family. No rule of health is
 * re-derived here: the follower's view already applied the aggregator's.
 */
public final class DesiredRecords {

    private DesiredRecords() {
    }

    /** What each mapped name should answer, in mapping order. */
    public static List<NameTarget> of(FollowedState state, Collection<NameMapping> names) {
        return names.stream().map(n -> of(state, n)).toList();
    }

    /**
     * The served members a name answers with: those not under a DRAIN window, or every served member when all of
     * them are draining (a drain never empties a name: a resolver with no answer fails harder than one that sends
     * a client to a draining server, which finishes its work).
     */
    static List<Member> answered(List<Member> served) {
        List<Member> notDraining = served.stream().filter(m -> !m.draining()).toList();
        return notDraining.isEmpty() ? served : notDraining;
    }

    /** What one name should answer. */
    public static NameTarget of(FollowedState state, NameMapping name) {
        Optional<GroupView> group = state.group(name.group());
        if (group.isEmpty()) {
            return new NameTarget(name, RecordSet.EMPTY, false, false, List.of(), List.of());
        }
        List<InetAddress> addresses = new ArrayList<>();
        List<String> hostNames = new ArrayList<>();
        List<String> otherFamily = new ArrayList<>();
        for (Member m : answered(group.get().served())) {
            Optional<InetAddress> address = AddressLiteral.parse(m.address());
            if (address.isEmpty()) {
                hostNames.add(m.targetId());
            } else if (!name.types().contains(RecordType.of(address.get()))) {
                otherFamily.add(m.targetId());
            } else {
                addresses.add(address.get());
            }
        }
        return new NameTarget(name, RecordSet.of(addresses), true, group.get().keptLastServed(), hostNames,
                otherFamily);
    }
}
