package io.healthmesh.probe.resolve;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Settings of the asynchronous resolver ({@link NettyHostResolver}). Checked when built, with messages such as
 * {@code "dns.query.timeout.ms: 50 (expected: 100..60000)"}.
 *
 * @param servers name servers as {@code host} or {@code host:port} (IP literals); empty = those of
 *     {@code /etc/resolv.conf}
 * @param queryTimeoutMs how long one query to one server may take before the next server is tried (a lookup of a
 *     probe also ends at the probe's deadline, whichever comes first)
 * @param maxTtlSeconds longest time an answer is cached, even when its TTL says longer (the record's TTL rules below it)
 * @param negativeTtlSeconds how long a failed lookup (NXDOMAIN, SERVFAIL, timeout) is cached; 0 = not cached
 */
public record DnsConfig(List<String> servers, int queryTimeoutMs, int maxTtlSeconds, int negativeTtlSeconds) {

    public static final int DEFAULT_QUERY_TIMEOUT_MS = 2_000;
    public static final int DEFAULT_MAX_TTL_SECONDS = 300;
    public static final int DEFAULT_NEGATIVE_TTL_SECONDS = 5;
    public static final DnsConfig DEFAULTS = new DnsConfig(List.of(), DEFAULT_QUERY_TIMEOUT_MS,
            DEFAULT_MAX_TTL_SECONDS, DEFAULT_NEGATIVE_TTL_SECONDS);

    public DnsConfig {
        servers = List.copyOf(requireNonNull(servers, "servers"));
        for (String server : servers) {
            DnsServers.parse(server); // throws with the offending entry
        }
        check("dns.query.timeout.ms", queryTimeoutMs, 100, 60_000);
        check("dns.cache.max.ttl.s", maxTtlSeconds, 0, 86_400);
        check("dns.cache.negative.ttl.s", negativeTtlSeconds, 0, 3_600);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
