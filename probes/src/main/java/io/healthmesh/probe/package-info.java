/**
 * The probe engine: one prober per protocol ({@code TcpProber}, {@code UdpProber}, {@code HttpProber},
 * {@code IcmpProber}) behind {@link io.healthmesh.probe.ProbeEngine}. {@code ProbeRunner} is the one place
 * that owns the deadline, the timing, DNS resolution, the deny list and the mapping of failures to
 * outcomes; the protocol classes only do I/O and say "this probe succeeded / failed". Knows targets,
 * not Kafka.
 */
package io.healthmesh.probe;
