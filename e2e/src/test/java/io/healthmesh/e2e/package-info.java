/**
 * The container end-to-end suite: the healthmesh images (Kafka, registry, two aggregators, probers in regions
 * {@code a} and {@code b}, example backends) on a private Docker network with fixed addresses, driven by stopping,
 * starting and killing containers, observed through the state topics read {@code read_committed}.
 * Runs under {@code -Pcontainers}; skips, saying why, when no Docker engine answers.
 */
package io.healthmesh.e2e;
