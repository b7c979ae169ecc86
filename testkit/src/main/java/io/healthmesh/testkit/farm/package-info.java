/**
 * The repository's one loopback target farm: TCP, HTTP and UDP targets on loopback addresses (127.0.0.0/8), each
 * switchable up or down (by hand or on a {@link io.healthmesh.testkit.farm.FlipSchedule}), with every switch
 * recorded so that a detection time is measured from the instant a target really changed. The integration tests
 * probe it and the load harness (module {@code bench}) measures against it. Bounded in listeners and targets;
 * loopback only.
 */
package io.healthmesh.testkit.farm;
