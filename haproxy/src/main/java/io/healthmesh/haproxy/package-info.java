/**
 * The {@code haproxy} role: follows the state topics (module {@code follow}) and keeps the servers of HAProxy
 * backends equal to the groups' routable sets through HAProxy's Runtime API. {@link io.healthmesh.haproxy.HaproxyWorker}
 * wires the follower, one {@code InstanceDriver} per HAProxy instance and the ops endpoint.
 */
package io.healthmesh.haproxy;
