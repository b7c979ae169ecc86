/**
 * The status page: {@link io.healthmesh.aggregator.status.StatusBoard} (pure: the rows the page shows),
 * {@link io.healthmesh.aggregator.status.StatusFeed} (fills the board from the state, group, definition and result
 * topics), {@link io.healthmesh.aggregator.status.StatusStream} (pushes the board's changes to browsers as
 * server-sent events), {@link io.healthmesh.aggregator.status.StatusPage} (the HTTP routes and the page's files) and
 * {@link io.healthmesh.aggregator.status.StatusMetrics} (per-group and optional per-target gauges).
 */
package io.healthmesh.status;
