/**
 * The snapshots the xDS cache serves: built from the follower's state group by group
 * ({@link io.healthmesh.xds.snapshot.SnapshotAssembler}), one per kind of client
 * ({@link io.healthmesh.xds.snapshot.ClientKind}), with versions that depend only on what is served
 * ({@link io.healthmesh.xds.snapshot.ResourceVersions}), so replicas agree.
 */
package io.healthmesh.xds.snapshot;
