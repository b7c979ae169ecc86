/**
 * UDP probes on a connected datagram channel: payload mode waits for the expected datagram
 * ({@code UdpResponseHandler}); port mode pings the host first, then takes silence until the deadline for an open
 * port and an ICMP port-unreachable for a closed one.
 */
package io.healthmesh.probe.udp;
