package io.healthmesh.core.maintenance;

/**
 * What a maintenance window does to the targets it covers. Declared in the order of precedence: when windows of
 * both modes cover a target, {@link #DRAIN} is the one in force (it is the stronger instruction: it silences too).
 */
public enum MaintenanceMode {
    /** Load balancers stop sending new work to the target; probing and the status go on; new alerts are held. */
    DRAIN,
    /** Statuses and routing unchanged; new alerts are held. */
    SILENCE
}
