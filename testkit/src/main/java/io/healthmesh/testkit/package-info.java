/**
 * Test support, used by every module in test scope only: {@link io.healthmesh.testkit.KafkaExtension} hands
 * integration tests a real broker and a schema registry ({@link io.healthmesh.testkit.TestKafka}),
 * {@link io.healthmesh.testkit.Await} is the one bounded wait, {@link io.healthmesh.testkit.TopicRecorder} records a
 * topic on its own thread and {@link io.healthmesh.testkit.TopicReads} reads or writes one in one call; the
 * loopback targets tests and the load harness probe are in {@link io.healthmesh.testkit.farm}.
 */
package io.healthmesh.testkit;
