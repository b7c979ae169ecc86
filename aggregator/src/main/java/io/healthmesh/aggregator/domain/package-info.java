/**
 * The aggregator's pure domain: the per-region {@link io.healthmesh.aggregator.domain.HealthStateMachine},
 * the {@link io.healthmesh.aggregator.domain.QuorumRule} that combines regions, the per-target
 * {@link io.healthmesh.aggregator.domain.TargetHealthState} and staleness. The group rule (routable set and
 * fail-open) is {@link io.healthmesh.core.health.GroupCounts} in {@code core}, shared with replay and the data-plane
 * followers. No Kafka, Netty or Avro: time and results are passed in, and every change comes back as a value, so
 * the topology only loads, calls and stores.
 */
package io.healthmesh.aggregator.domain;
