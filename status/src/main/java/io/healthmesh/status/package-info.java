/**
 * The status page and the {@code status} role. {@link io.healthmesh.status.StatusService} starts the page's parts
 * together on a listener it is given (the role's own, {@link io.healthmesh.status.StatusWorker}, or an aggregator's
 * with {@code status.page.enabled}); {@link io.healthmesh.status.StatusSettings} declares the page's settings once
 * for both; {@link io.healthmesh.status.StatusMetrics} registers the per-group and optional per-target gauges.
 * Subpackages: {@code board} (pure: the rows the page shows), {@code feed} (fills the board from the state, group,
 * definition and result topics) and {@code web} (pushes the board's changes to browsers as server-sent events; the
 * HTTP routes and the page's files). Nothing here depends on the aggregator: the page reads what it writes.
 */
package io.healthmesh.status;
