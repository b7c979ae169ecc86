/**
 * The probe engine: {@link io.healthmesh.probe.ProbeEngine} and its Netty implementation, with one prober per
 * protocol behind {@link io.healthmesh.probe.Prober}, each in its own package ({@code tcp}, {@code udp},
 * {@code http}, {@code icmp}). {@code ProbeRunner} is the one place that owns what every protocol shares: the
 * deadline (kept in {@code DeadlineLanes}), the address through the egress gate, the stall watch
 * ({@code LoopWatch}) and turning anything thrown into a verdict; {@code ProbeContext} holds one probe's timings and
 * its single verdict, and {@code FailureClassifier} maps failures to outcomes ({@code TlsFailures} names a TLS
 * failure by its kind). The protocol classes only do I/O and say "this probe succeeded / failed". Knows targets,
 * not Kafka.
 */
package io.healthmesh.probe;
