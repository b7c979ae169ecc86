/**
 * Result publishing: finished probes become {@code ProbeResult} records on the probe-results topic through one
 * idempotent producer, with a bounded drop-oldest buffer in front of it so that nothing ever blocks a prober.
 */
package io.healthmesh.prober.publish;
