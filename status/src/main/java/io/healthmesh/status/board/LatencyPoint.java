package io.healthmesh.status.board;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One probe result in a target's latency history. On the page's wire it is one number ({@link #wire()}), because
 * 10,000 targets with 20 results each make a large first snapshot.
 *
 * @param atMs start of the probe, epoch ms
 * @param micros its latency
 * @param ok whether it succeeded
 */
public record LatencyPoint(long atMs, long micros, boolean ok) {

    /** The latency in microseconds when the probe succeeded, {@code -1 - micros} when it failed. */
    @JsonValue
    public long wire() {
        return ok ? micros : -1 - micros;
    }
}
