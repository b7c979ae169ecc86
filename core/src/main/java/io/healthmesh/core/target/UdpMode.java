package io.healthmesh.core.target;

/**
 * UDP probe mode. {@code PORT}: ping the host, then send a datagram and fail on ICMP port-unreachable
 * (can report a false success when the host rate-limits ICMP errors). {@code PAYLOAD}: send a request
 * and require the expected response (recommended).
 */
public enum UdpMode { PORT, PAYLOAD }
