/**
 * What a group becomes in xDS, as pure functions: its endpoints with the health a proxy must see
 * ({@link io.healthmesh.xds.map.EndpointMapping}), the EDS cluster and, for gRPC clients, the listener around them
 * ({@link io.healthmesh.xds.map.ProxyResources}), and the cluster name it is served under
 * ({@link io.healthmesh.xds.map.ClusterNames}).
 */
package io.healthmesh.xds.map;
