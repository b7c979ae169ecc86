package io.healthmesh.probe.icmp;

/**
 * Which kernel socket sends ICMP echoes. {@link #PING}: Linux ping sockets ({@code SOCK_DGRAM}/{@code IPPROTO_ICMP}),
 * unprivileged when {@code net.ipv4.ping_group_range} includes the process's group. {@link #RAW}: raw sockets,
 * which need {@code CAP_NET_RAW}. {@link #AUTO}: ping sockets, else raw sockets, per address family.
 */
public enum IcmpSocketKind { AUTO, PING, RAW }
