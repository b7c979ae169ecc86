/**
 * Talking to a zone's primary server: reading a name's address records and sending RFC 2136 updates signed with
 * TSIG, through dnsjava ({@link io.healthmesh.dnsfollow.update.Rfc2136Server}), with failures classified
 * ({@link io.healthmesh.dnsfollow.update.DnsUpdateException.Reason}).
 */
package io.healthmesh.dnsfollow.update;
