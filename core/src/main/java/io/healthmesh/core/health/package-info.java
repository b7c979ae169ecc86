/**
 * Health states of targets ({@link io.healthmesh.core.health.HealthStatus}) and the group routing rule over them
 * ({@link io.healthmesh.core.health.GroupCounts}: the routable set and fail-open; {@link
 * io.healthmesh.core.health.GroupState}: with a group's panic threshold and hysteresis), shared by the aggregator, replay
 * and every role that follows the group events.
 */
package io.healthmesh.core.health;
