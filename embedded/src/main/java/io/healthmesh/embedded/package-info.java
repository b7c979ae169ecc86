/**
 * A real Kafka for the demo and for tests: {@link io.healthmesh.embedded.EmbeddedKafka}, a single-node KRaft broker
 * started in-process from Kafka's own jars. Test support built on it (the JUnit extension, waits, topic recorders)
 * lives in the test-scoped {@code testkit} module, so that none of it reaches the product.
 */
package io.healthmesh.embedded;
