/**
 * gRPC for the xDS tests: {@link io.healthmesh.testkit.grpc.LoopbackBackends}, real gRPC servers on loopback that
 * count the calls they answer (optionally behind relays that stop accepting connections), and
 * {@link io.healthmesh.testkit.grpc.XdsChannels}, grpc-java's xDS client pointed at a server on loopback. grpc-java
 * is an optional dependency of the testkit: a module using this package declares it.
 */
package io.healthmesh.testkit.grpc;
