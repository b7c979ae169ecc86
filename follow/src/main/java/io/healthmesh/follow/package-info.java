/**
 * What the data-plane roles ({@code xds}, {@code haproxy}, {@code dns}) share. {@link io.healthmesh.follow.StateFollower}
 * reads the compacted {@code targets}, {@code health-state} and {@code group-state} topics from the beginning,
 * without a consumer group, into a {@link io.healthmesh.follow.StateBook}: the pure part, which turns those records
 * into one {@link io.healthmesh.follow.GroupView} per group, the members a data plane should serve. Each role maps
 * views to its data plane's terms and bounds how fast it changes the data plane with a
 * {@link io.healthmesh.follow.ChangeBudget}.
 */
package io.healthmesh.follow;
