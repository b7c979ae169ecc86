package io.healthmesh.testkit.fuzz;

/**
 * One fuzz input: the raw key and value of a record, and what made it.
 *
 * @param kind the mutation, e.g. {@code bitflip} or {@code regions.name=70000}
 * @param results true for the probe-results topic, false for the targets topic
 */
public record FuzzInput(String kind, boolean results, byte[] key, byte[] value) {
}
