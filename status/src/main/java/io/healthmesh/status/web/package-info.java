/**
 * The HTTP side of the status page: {@link io.healthmesh.status.web.StatusStream} pushes the board's changes to
 * browsers as server-sent events, {@link io.healthmesh.status.web.StatusPage} mounts {@code /status} (the page's
 * files from the jar, the event stream, a JSON snapshot) on an {@code OpsServer}.
 */
package io.healthmesh.status.web;
