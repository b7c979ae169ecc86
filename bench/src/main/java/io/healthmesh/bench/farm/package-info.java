/**
 * The load harness's target farm: many TCP, HTTP and UDP targets on loopback addresses (127.0.0.0/8),
 * each switchable up or down, with every switch recorded so that detection times can be measured
 * against the instant a target really changed. Bounded in listeners and targets; loopback only.
 */
package io.healthmesh.bench.farm;
