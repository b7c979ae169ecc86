/**
 * What the status page shows, as plain data: {@link io.healthmesh.status.board.StatusBoard} (one lock; target and
 * group rows, labels, latency histories in {@link io.healthmesh.status.board.LatencyRing}s; what changed since the
 * last drain). Imports neither Kafka nor HTTP.
 */
package io.healthmesh.status.board;
