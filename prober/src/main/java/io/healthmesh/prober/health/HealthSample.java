package io.healthmesh.prober.health;

/**
 * One second of the prober's own health.
 *
 * @param timerLagMs how late the timer wheel ran a task planned in that second, beyond its tick
 * @param loopLagMs the worst lateness of a task on the probe engine's event loops in that second
 * @param stealPercent share of CPU time the hypervisor gave to others in that second, {@code NaN} when not visible
 */
public record HealthSample(long timerLagMs, long loopLagMs, double stealPercent) {
}
