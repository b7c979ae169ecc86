/**
 * The dns role ({@code healthmesh dns}): keeps DNS names answering the served members of their groups, by RFC 2136
 * dynamic updates signed with TSIG, following the state topics with the shared follower. The mapping file is read
 * in {@code mapping}, the pure planning (target sets, "never empty", differences) lives in {@code plan}, talking to
 * the primaries in {@code update}; {@link io.healthmesh.dnsfollow.DnsFollowWorker} runs it.
 */
package io.healthmesh.dnsfollow;
