/**
 * The Kafka Streams side of the aggregator: {@link io.healthmesh.aggregator.topology.AggregatorTopology#build} wires
 * the inputs (read as bytes, decoded in the processor so that bad records can be rejected with their original
 * bytes), the per-target processor and store, the repartition by group, the per-group processor and store, and the
 * four output topics. Processors only load, call the domain, store and forward.
 */
package io.healthmesh.aggregator.topology;
