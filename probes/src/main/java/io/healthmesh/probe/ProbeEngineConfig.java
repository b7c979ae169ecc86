package io.healthmesh.probe;

import io.healthmesh.probe.resolve.DnsConfig;
import io.healthmesh.probe.egress.Cidr;
import io.healthmesh.probe.egress.EgressPolicy;
import io.healthmesh.probe.icmp.IcmpSocketKind;
import io.healthmesh.probe.transport.ProbeTransport;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Settings of a {@link NettyProbeEngine}. Immutable; every value is checked when the record is built,
 * with messages such as {@code "maxRedirects: 11 (expected: 0..10)"}. Start from {@link #defaults()} and
 * change what you need with the {@code with...} methods.
 *
 * @param userAgent {@code User-Agent} of every HTTP probe, so that operators can recognise probe traffic
 * @param denyList destination CIDRs never probed ({@code BLOCKED_BY_POLICY}), checked after DNS resolution
 * @param maxHeaderBytes bound on the HTTP status line plus headers; a larger response is {@code UNEXPECTED_RESPONSE}
 * @param maxBodyBytes body bytes (HTTP) or response bytes (TCP {@code expect}) searched before giving up
 * @param maxRedirects redirect hops an HTTP probe follows when redirects are on; one more is {@code TOO_MANY_REDIRECTS}
 * @param eventLoopThreads threads of the event-loop group the engine creates when it is not given one
 * @param dns the asynchronous resolver's settings (name servers, query timeout, cache TTLs)
 * @param maxPendingResolutions name lookups in flight at once; more are {@code INCONCLUSIVE} ({@code queue-full})
 * @param maxOutstandingEchoes ICMP echoes in flight at once; more are {@code INCONCLUSIVE} ({@code queue-full})
 * @param icmpSocket which ICMP socket kind to use: ping sockets, raw sockets, or the first that the system allows
 * @param allowList destination CIDRs probed although a less (or equally) specific deny block holds them, such as
 *                  {@code 127.0.0.0/8} for a demo on one machine; empty by default
 * @param deniedEndpoints the cluster's own endpoints, {@code host:port} ({@code [v6]:port}), never probed whatever
 *                        the allow list says; resolved when the engine is created. A wildcard host
 *                        ({@code 0.0.0.0}, {@code ::}, {@code *}) stands for that port on every address of this host
 * @param stallFraction share of {@code min(interval, timeout)} an event loop may stall while a probe runs before
 *     that probe's timeout or error is {@code INCONCLUSIVE} ({@code loop-stall}); above 0, at most 1
 * @param transport the Netty transport of TCP, UDP and HTTP(S) probes: {@code AUTO} (epoll where available, else NIO) by default
 */
public record ProbeEngineConfig(String userAgent, List<String> denyList, int maxHeaderBytes, int maxBodyBytes,
                                int maxRedirects, int eventLoopThreads, DnsConfig dns,
                                int maxPendingResolutions, int maxOutstandingEchoes, IcmpSocketKind icmpSocket,
                                double stallFraction, List<String> allowList, List<String> deniedEndpoints,
                                ProbeTransport transport) {

    public static final String DEFAULT_USER_AGENT = "healthmesh-healthcheck";
    /**
     * BEHAVIOUR.md section 9: link-local (where most clouds serve metadata) and the other metadata addresses (AWS IPv6,
     * GCP IPv6, Alibaba, Azure wire server, Oracle's second address), the deprecated IPv6 site-local block (still
     * routed by some stacks, like link-local), the local-use NAT64 block (it translates to any IPv4 address, private
     * ones included; opened by an allow block, its embedded IPv4 address is still judged), loopback, "this network"
     * and the unspecified address, multicast and the limited broadcast. Private ranges (RFC 1918, ULA) are not in it: that is where backends live.
     */
    public static final List<String> DEFAULT_DENY_LIST = List.of("169.254.0.0/16", "fe80::/10", "fd00:ec2::/32",
            "fd20:ce::254/128", "100.100.100.200/32", "168.63.129.16/32", "192.0.0.192/32", "fec0::/10",
            "64:ff9b:1::/48", "127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128", "224.0.0.0/4", "ff00::/8", "255.255.255.255/32");
    /** What {@code allow.list=loopback} style setups (the demo, tests) open: every loopback address. */
    public static final List<String> LOOPBACK = List.of("127.0.0.0/8", "::1/128");
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
    public static final int DEFAULT_MAX_BODY_BYTES = 5120;
    public static final int DEFAULT_MAX_REDIRECTS = 3;
    public static final int DEFAULT_MAX_PENDING_RESOLUTIONS = 10_000;
    public static final int DEFAULT_MAX_OUTSTANDING_ECHOES = 4096;
    /** Sequence numbers are 16 bits; half of the space keeps a late reply from matching a newer echo. */
    public static final int MAX_OUTSTANDING_ECHOES = 32_768;
    public static final double DEFAULT_STALL_FRACTION = 0.25;

    public ProbeEngineConfig {
        requireNonNull(userAgent, "userAgent");
        requireNonNull(denyList, "denyList");
        requireNonNull(icmpSocket, "icmpSocket");
        requireNonNull(dns, "dns");
        requireNonNull(transport, "transport");
        if (userAgent.isBlank() || userAgent.length() > 200 || userAgent.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw new IllegalArgumentException("userAgent: '" + userAgent
                    + "' (expected: 1..200 printable ASCII characters)");
        }
        requireNonNull(allowList, "allowList");
        requireNonNull(deniedEndpoints, "deniedEndpoints");
        denyList = List.copyOf(denyList);
        for (String cidr : denyList) {
            Cidr.parse("denyList", cidr); // throws with the offending entry
        }
        allowList = List.copyOf(allowList);
        for (String cidr : allowList) {
            Cidr.parse("allowList", cidr);
        }
        deniedEndpoints = List.copyOf(deniedEndpoints);
        for (String endpoint : deniedEndpoints) {
            EgressPolicy.HostPort.parse(endpoint);
        }
        check("maxHeaderBytes", maxHeaderBytes, 1024, 1024 * 1024);
        check("maxBodyBytes", maxBodyBytes, 64, 1024 * 1024);
        check("maxRedirects", maxRedirects, 0, 10);
        check("eventLoopThreads", eventLoopThreads, 1, 256);
        check("maxPendingResolutions", maxPendingResolutions, 1, 1_000_000);
        check("maxOutstandingEchoes", maxOutstandingEchoes, 1, MAX_OUTSTANDING_ECHOES);
        if (!(stallFraction > 0 && stallFraction <= 1)) {
            throw new IllegalArgumentException("stallFraction: " + stallFraction + " (expected: above 0, at most 1)");
        }
    }

    /** Every default: the SPEC's deny list, an empty allow list, {@code healthmesh-healthcheck}, 16 KiB headers, 5,120 body bytes, 3 redirects. */
    public static ProbeEngineConfig defaults() {
        return new ProbeEngineConfig(DEFAULT_USER_AGENT, DEFAULT_DENY_LIST, DEFAULT_MAX_HEADER_BYTES,
                DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, Math.max(1, Runtime.getRuntime().availableProcessors()),
                DnsConfig.DEFAULTS, DEFAULT_MAX_PENDING_RESOLUTIONS, DEFAULT_MAX_OUTSTANDING_ECHOES,
                IcmpSocketKind.AUTO, DEFAULT_STALL_FRACTION, List.of(), List.of(), ProbeTransport.AUTO);
    }

    public ProbeEngineConfig withUserAgent(String value) {
        return new ProbeEngineConfig(value, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withDenyList(List<String> value) {
        return new ProbeEngineConfig(userAgent, value, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withMaxHeaderBytes(int value) {
        return new ProbeEngineConfig(userAgent, denyList, value, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withMaxBodyBytes(int value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, value, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withMaxRedirects(int value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, value, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withEventLoopThreads(int value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, value,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withResolver(DnsConfig value, int maxPending) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                value, maxPending, maxOutstandingEchoes, icmpSocket, stallFraction, allowList,
                deniedEndpoints, transport);
    }

    public ProbeEngineConfig withIcmp(IcmpSocketKind kind, int maxOutstanding) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstanding, kind, stallFraction, allowList, deniedEndpoints, transport);
    }

    public ProbeEngineConfig withStallFraction(double value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, value, allowList,
                deniedEndpoints, transport);
    }

    /** Replaces the allow list (CIDRs opened inside the deny list). */
    public ProbeEngineConfig withAllowList(List<String> value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, value, deniedEndpoints, transport);
    }

    /** Replaces the cluster endpoints denied whatever the allow list says ({@code host:port}). */
    public ProbeEngineConfig withDeniedEndpoints(List<String> value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList, value, transport);
    }

    /** Replaces the transport ({@link ProbeTransport#AUTO}: the best the system allows). */
    public ProbeEngineConfig withTransport(ProbeTransport value) {
        return new ProbeEngineConfig(userAgent, denyList, maxHeaderBytes, maxBodyBytes, maxRedirects, eventLoopThreads,
                dns, maxPendingResolutions, maxOutstandingEchoes, icmpSocket, stallFraction, allowList, deniedEndpoints,
                value);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
    }
}
