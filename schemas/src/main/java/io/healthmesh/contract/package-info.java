/**
 * The Avro contract's adapters: topic names, topic setup, rejected-record headers; the domain mapping and target
 * files are in {@code .target}, the Confluent-wire-format serde in {@code .serde}.
 */
package io.healthmesh.contract;
