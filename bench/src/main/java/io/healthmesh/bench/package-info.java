/**
 * The load harness's command ({@link io.healthmesh.bench.Bench}) and its subcommands: {@code load}
 * ({@link io.healthmesh.bench.LoadDriver}: a prober and the aggregator against the loopback target farm on an
 * embedded broker, with HAProxy and blackbox_exporter on the same farm, writing the figures of docs/BENCHMARKS.md),
 * {@code restore}, {@code prober-scale}, {@code decide} ({@link io.healthmesh.bench.DecideBench}: a prober and an
 * aggregator on a whole fleet, timing every target from its first probe to its decided state),
 * {@code haproxy-alone}, {@code syscalls}, {@code jfr-hot}, {@code transaction-cost} and {@code status-board-heap}.
 */
package io.healthmesh.bench;
