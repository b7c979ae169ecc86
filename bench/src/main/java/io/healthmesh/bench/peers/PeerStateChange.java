package io.healthmesh.bench.peers;

import io.healthmesh.testkit.farm.FarmTarget;

/**
 * A peer reported that a target changed state.
 *
 * @param epochMicros wall clock when the benchmark read the report (the peer's output is read as it comes)
 */
public record PeerStateChange(FarmTarget target, boolean up, long epochMicros) {
}
