/**
 * The Kafka serde for the generated Avro records, in Confluent's wire format (magic byte 0, 4-byte
 * big-endian schema id, Avro binary) with Confluent's subject naming and config keys, so that any
 * Confluent-compatible client reads what healthmesh writes, and the other way round.
 */
package io.healthmesh.contract.serde;
