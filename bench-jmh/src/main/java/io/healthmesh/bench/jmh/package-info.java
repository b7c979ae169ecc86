/**
 * JMH benchmarks of the hot paths: the scheduler firing a probe, the health state machine's step, the Avro serde,
 * the status feed and board, the epoll registration table, a probe-results batch per codec and publishing results to
 * a real broker (the store rows' benchmark sits in the topology's package, beside the layouts it measures). Run with
 * {@code java -jar bench-jmh/target/benchmarks.jar} ({@code bench/scripts/jmh.sh}); none of them runs in
 * {@code mvn verify}.
 */
package io.healthmesh.bench.jmh;
