package io.healthmesh.testkit.farm;

/**
 * The instant one target went down or came back up: taken right after the listener stopped (or started)
 * answering, so that a detection measured from it is never flattered.
 *
 * @param epochMicros wall clock, microseconds since the epoch (comparable with Kafka record times)
 * @param nanoTime {@link System#nanoTime()} at the same moment (for intervals within this JVM)
 */
public record Transition(FarmTarget target, boolean up, long epochMicros, long nanoTime) {
}
