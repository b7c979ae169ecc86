/**
 * The soak run ({@code bench soak}): a prober and an aggregator as separate {@code healthmesh} processes against one
 * broker and the loopback target farm, restarted on a timer, sampled for heap, RSS, threads, descriptors and consumer
 * lag, with every state event checked for false flips. The series are written as CSV and drawn as SVG, and a pure
 * verdict ({@link io.healthmesh.bench.soak.GrowthVerdict}) fails the run on growth beyond stated bounds
 * (docs/operations/soak.md).
 */
package io.healthmesh.bench.soak;
