/**
 * The aggregator role: {@link io.healthmesh.aggregator.AggregatorConfig} (every setting, validated once) and
 * {@link io.healthmesh.aggregator.AggregatorWorker} (Kafka Streams with exactly-once, topic setup, the ops endpoint
 * and the query API). The rules live in {@code domain}, the Kafka Streams wiring in {@code topology}.
 */
package io.healthmesh.aggregator;
