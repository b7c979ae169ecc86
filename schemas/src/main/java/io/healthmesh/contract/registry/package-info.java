/**
 * The schema registry's logic, shared by the registry server (which persists it in a Kafka topic)
 * and by the serde's in-process {@code mem://} registry: subjects, versions, global ids,
 * compatibility levels and soft deletion with Confluent's semantics; plus the client the serde
 * talks to ({@link io.healthmesh.contract.registry.SchemaRegistryClient}), over HTTP or in process.
 */
package io.healthmesh.contract.registry;
