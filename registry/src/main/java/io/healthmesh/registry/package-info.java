/**
 * The {@code registry} role: a Confluent-compatible schema registry served over HTTP by Netty, its
 * schemas kept in a compacted Kafka topic ({@code _schemas} by default, in Confluent's record
 * format) and re-read at start, so ids survive restarts. The logic itself is shared with the
 * serde's in-process registry: {@link io.healthmesh.contract.registry.SchemaRegistry}.
 */
package io.healthmesh.registry;
