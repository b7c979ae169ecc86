/**
 * The load driver's parts: the broker stack in the driver's JVM, workers in child JVMs (so that their CPU and
 * heap are theirs alone), the target definitions for the farm, the taps that read results and state events,
 * and the arithmetic of the figures.
 */
package io.healthmesh.bench.run;
