/**
 * The xds role: a control plane that serves each healthmesh group to Envoy proxies and gRPC clients over xDS (ADS,
 * state-of-the-world and delta), with java-control-plane, fed by a follower of the state topics.
 * {@link io.healthmesh.xds.XdsWorker} wires it; the mapping from a group to xDS resources is in
 * {@code io.healthmesh.xds.map}, the snapshots and their versions in {@code io.healthmesh.xds.snapshot}.
 */
package io.healthmesh.xds;
