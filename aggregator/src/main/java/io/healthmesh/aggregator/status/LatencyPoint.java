package io.healthmesh.aggregator.status;

/**
 * One probe result in a target's latency history.
 *
 * @param atMs start of the probe, epoch ms
 * @param micros its latency
 * @param ok whether it succeeded
 */
public record LatencyPoint(long atMs, long micros, boolean ok) {
}
