/**
 * The way into a group's {@link io.healthmesh.core.health.PanicThreshold}: the Avro contract's {@code GroupPolicy}
 * record on the {@code groups} topic, read and written by the same validating mapping in the aggregator, replay and
 * {@code healthmesh groups set}.
 */
package io.healthmesh.contract.group;
