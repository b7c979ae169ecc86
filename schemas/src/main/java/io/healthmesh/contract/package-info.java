/** The Avro contract's adapters: topic names, the domain mapping, the Confluent-wire-format serde. */
package io.healthmesh.contract;
