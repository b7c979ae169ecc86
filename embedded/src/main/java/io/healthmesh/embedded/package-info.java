/**
 * A real Kafka for tests and for the demo: {@link io.healthmesh.embedded.EmbeddedKafka}, a single-node KRaft
 * broker started in-process from Kafka's own jars, and {@link io.healthmesh.embedded.KafkaExtension}, the JUnit 5
 * extension that hands integration tests one shared broker and schema registry.
 */
package io.healthmesh.embedded;
