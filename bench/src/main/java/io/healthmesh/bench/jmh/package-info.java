/**
 * JMH benchmarks of the hot paths: the scheduler firing a probe, the health state machine's step, the Avro serde
 * and publishing results to a real broker. Run with {@code java -jar bench/target/benchmarks.jar}; none of them
 * runs in {@code mvn verify}.
 */
package io.healthmesh.bench.jmh;
