/**
 * Maintenance windows (pure): what a window is ({@link io.healthmesh.core.maintenance.MaintenanceWindow}), its
 * bounds ({@link io.healthmesh.core.maintenance.MaintenanceRules}) and the one rule that says which window is in
 * force for a target at an instant ({@link io.healthmesh.core.maintenance.MaintenanceBook}), shared by the
 * aggregator's topology and replay.
 */
package io.healthmesh.core.maintenance;
