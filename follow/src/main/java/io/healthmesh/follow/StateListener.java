package io.healthmesh.follow;

import java.util.Set;

/** Stand-in of the follow API until the follow branch lands. */
@FunctionalInterface
public interface StateListener {
    void onState(FollowedState state, Set<String> changedGroups);
}
