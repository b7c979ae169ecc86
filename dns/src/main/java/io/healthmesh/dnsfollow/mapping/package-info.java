/**
 * The DNS mapping file: which group each DNS name follows, in which zone, at which primary server and signed with
 * which TSIG key ({@link io.healthmesh.dnsfollow.mapping.MappingFile} reads and validates it into a
 * {@link io.healthmesh.dnsfollow.mapping.DnsMapping}).
 */
package io.healthmesh.dnsfollow.mapping;
