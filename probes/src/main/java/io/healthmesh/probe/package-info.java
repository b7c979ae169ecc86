/** The probe engine: one prober per protocol behind {@link io.healthmesh.probe.ProbeEngine}. */
package io.healthmesh.probe;
