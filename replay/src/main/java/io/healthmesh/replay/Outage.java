package io.healthmesh.replay;

/**
 * A real outage seen in the raw results: failures in a row (in every region, in the order they were recorded) for at
 * least the minimum outage length. It says nothing of thresholds: it is what the probes saw.
 *
 * @param startMs start of the first failed probe
 * @param lastFailureMs completion of the last failed probe
 * @param endMs start of the first successful probe after it, or {@code null} when it lasted to the end of the range
 */
public record Outage(long startMs, long lastFailureMs, Long endMs) {
}
