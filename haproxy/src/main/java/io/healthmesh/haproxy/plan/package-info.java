/**
 * The pure part of the driver, no I/O: what each backend should hold ({@link io.healthmesh.haproxy.plan.DesiredServers}
 * from the followed state and the mapping) and the Runtime API commands that take what HAProxy holds there
 * ({@link io.healthmesh.haproxy.plan.ServerDiff}).
 */
package io.healthmesh.haproxy.plan;
