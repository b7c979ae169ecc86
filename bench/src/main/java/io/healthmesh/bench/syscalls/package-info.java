/**
 * The syscalls-per-probe driver: the real probe engine against loopback targets of the farm in another process, so
 * that {@code strace} attached to the driver counts only what the engine does per probe
 * ({@code bench/scripts/syscalls.sh}, {@code engine-cpu.sh}).
 */
package io.healthmesh.bench.syscalls;
