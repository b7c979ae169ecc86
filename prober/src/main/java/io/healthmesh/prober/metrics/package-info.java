/** The prober's Prometheus metrics, registered on the worker's own registry and served on {@code /metrics}. */
package io.healthmesh.prober.metrics;
