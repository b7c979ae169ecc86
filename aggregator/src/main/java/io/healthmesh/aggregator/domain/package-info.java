/**
 * The aggregator's pure domain: the per-region {@link io.healthmesh.aggregator.domain.HealthStateMachine},
 * the {@link io.healthmesh.aggregator.domain.QuorumRule} that combines regions, the per-target
 * {@link io.healthmesh.aggregator.domain.TargetHealthState}, staleness and the
 * {@link io.healthmesh.aggregator.domain.FailOpenPolicy}. No Kafka, Netty or Avro: time and results are passed in,
 * and every change comes back as a value, so the topology only loads, calls and stores.
 */
package io.healthmesh.aggregator.domain;
