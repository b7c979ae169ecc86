/**
 * GRPC probes: one {@code grpc.health.v1.Health/Check} call per probe over a fresh HTTP/2 connection (plaintext with
 * prior knowledge, or TLS with ALPN {@code h2}), on the engine's own event loops through Netty's HTTP/2 codec. The two
 * tiny protobuf messages are encoded by hand ({@link io.healthmesh.probe.grpc.HealthMessages}); a grpc-java channel
 * per probe would cost a thread pool's worth of machinery for two bytes of answer.
 */
package io.healthmesh.probe.grpc;
