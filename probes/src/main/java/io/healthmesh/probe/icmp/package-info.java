/**
 * ICMP echo (ping): {@code IcmpProber}, and the {@code IcmpPinger} it asks, over Linux ping sockets or raw sockets
 * through JNA, IPv4 and IPv6, on one dedicated I/O thread so that no event loop ever blocks on a native call.
 */
package io.healthmesh.probe.icmp;
