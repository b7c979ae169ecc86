/**
 * The syscalls-per-probe driver: the real probe engine against loopback servers of another process, so that
 * {@code strace} attached to the driver counts only what the engine does per probe ({@code bench/scripts/syscalls.sh}).
 */
package io.healthmesh.bench.syscalls;
