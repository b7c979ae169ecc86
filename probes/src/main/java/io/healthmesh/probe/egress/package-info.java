/**
 * Where probes may send packets: {@code AddressGate} is the only way a probe gets an address (resolution, then the
 * {@code EgressPolicy}: deny and allow lists of {@code Cidr} blocks and denied endpoints, every spelling of an
 * address read as the kernel reads it by {@code AddressForms}; {@code DiscoveredEndpoints}, the cluster endpoints
 * and host addresses the prober learns while running). Used for every target and again for every HTTP redirect
 * hop.
 */
package io.healthmesh.probe.egress;
