package io.healthmesh.follow;

import java.util.Set;

/**
 * Told about the followed state on the follower's own thread. The first call comes once every partition of the three
 * topics has been read up to its end as of the start (the follower has caught up), with every group as changed;
 * later calls come after each batch of records that changed at least one view, with those groups (a removed group is
 * among them and absent from the state). It should return quickly; what it throws is logged and counted and does not
 * stop the follower.
 */
@FunctionalInterface
public interface StateListener {

    void onState(FollowedState state, Set<String> changedGroups);
}
