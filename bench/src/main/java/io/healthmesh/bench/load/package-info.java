/**
 * The load benchmark's steps ({@code bench load}): each phase a small class holding its own flags (a picocli mixin
 * of {@link io.healthmesh.bench.LoadDriver}), their defaults per mode (full or {@code --short}) and the step that runs
 * it, on the parts of {@link io.healthmesh.bench.run}; {@link io.healthmesh.bench.load.Workers} starts the child JVMs.
 */
package io.healthmesh.bench.load;
