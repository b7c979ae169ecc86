/**
 * {@code healthmesh demo}: the whole stack in one process (broker, registry, aggregator, prober) and small loopback
 * backends (HTTP, TCP, UDP echo) that go down and up on a timer, so that state changes and fail-open show at once.
 */
package io.healthmesh.cli.demo;
