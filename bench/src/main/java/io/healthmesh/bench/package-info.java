/**
 * The load driver ({@link io.healthmesh.bench.LoadDriver}): runs a prober and the aggregator against the loopback
 * target farm on an embedded broker, with HAProxy and blackbox_exporter on the same farm, and writes the figures of
 * docs/BENCHMARKS.md.
 */
package io.healthmesh.bench;
