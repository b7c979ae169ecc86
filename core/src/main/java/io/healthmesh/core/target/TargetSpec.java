package io.healthmesh.core.target;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One target as the domain sees it: the Avro {@code TargetDefinition} with every default applied.
 * Sections that do not apply to the protocol are still present (their defaults), so that callers
 * never test for null. Built by the schemas module's mapper, checked by {@link TargetValidator}.
 *
 * <p>{@code fastIntervalMs} and {@code downIntervalMs} are the state-dependent intervals (BEHAVIOUR.md section 5b):
 * {@code null} when absent, and then {@code intervalMs} applies in that phase too, which is the schedule of a
 * definition that has neither. Which phase a target is in is {@link IntervalState}'s rule.
 *
 * <p>{@code condition} is an optional CEL expression over the check's result ({@code null}: none), checked by
 * {@code ConditionRules} and evaluated by the prober after a check that otherwise succeeded.
 */
public record TargetSpec(String id, String group, String address, int port, Protocol protocol,
                         int intervalMs, int timeoutMs, int healthyThreshold, int unhealthyThreshold,
                         boolean enabled, int weight, Map<String, String> labels,
                         HttpSpec http, UdpSpec udp, TcpSpec tcp,
                         List<String> regions, QuorumPolicy quorum, int quorumAtLeast, TargetProfile profile,
                         Integer fastIntervalMs, Integer downIntervalMs, GrpcSpec grpc, TlsSpec tls,
                         DnsSpec dns, String condition) {

    public static final String DEFAULT_GROUP = "default";
    public static final int DEFAULT_PORT = 80;
    public static final int DEFAULT_INTERVAL_MS = 5_000;
    public static final int DEFAULT_TIMEOUT_MS = 2_000;
    public static final int DEFAULT_HEALTHY_THRESHOLD = 3;
    public static final int DEFAULT_UNHEALTHY_THRESHOLD = 3;
    public static final int DEFAULT_WEIGHT = 10;

    public TargetSpec {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        regions = regions == null ? List.of() : List.copyOf(regions);
        http = http == null ? HttpSpec.DEFAULTS : http;
        udp = udp == null ? UdpSpec.DEFAULTS : udp;
        tcp = tcp == null ? TcpSpec.CONNECT_ONLY : tcp;
        quorum = quorum == null ? QuorumPolicy.MAJORITY : quorum;
        profile = profile == null ? TargetProfile.GENERIC : profile;
        grpc = grpc == null ? GrpcSpec.DEFAULTS : grpc;
        tls = tls == null ? TlsSpec.DEFAULTS : tls;
        dns = dns == null ? DnsSpec.DEFAULTS : dns;
    }

    /** A spec without state-dependent intervals, GRPC, TLS or DNS settings, or a condition (the older shape). */
    public TargetSpec(String id, String group, String address, int port, Protocol protocol,
                      int intervalMs, int timeoutMs, int healthyThreshold, int unhealthyThreshold,
                      boolean enabled, int weight, Map<String, String> labels,
                      HttpSpec http, UdpSpec udp, TcpSpec tcp,
                      List<String> regions, QuorumPolicy quorum, int quorumAtLeast, TargetProfile profile) {
        this(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold,
                enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile, null, null, null, null,
                null, null);
    }

    /** A {@link TargetProfile#GENERIC} spec (the shape before profiles existed). */
    public TargetSpec(String id, String group, String address, int port, Protocol protocol,
                      int intervalMs, int timeoutMs, int healthyThreshold, int unhealthyThreshold,
                      boolean enabled, int weight, Map<String, String> labels,
                      HttpSpec http, UdpSpec udp, TcpSpec tcp,
                      List<String> regions, QuorumPolicy quorum, int quorumAtLeast) {
        this(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold,
                enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, TargetProfile.GENERIC);
    }

    /**
     * True when the next probe starts {@code interval} after the last one ended (HTTP/HTTPS always; every protocol
     * under a profile whose document gives one formula for every kind); false for a fixed rate (SPEC section 5).
     */
    public boolean fixedDelay() {
        return protocol != null && (protocol.isLayer7() || profile.everyKindFixedDelay());
    }

    public TargetSpec withProfile(TargetProfile newProfile) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, newProfile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    /** A spec with every default of SPEC section 5, for tests and the demo. */
    public static TargetSpec of(String id, String group, String address, int port, Protocol protocol) {
        return new TargetSpec(id, group, address, port, protocol, DEFAULT_INTERVAL_MS, DEFAULT_TIMEOUT_MS,
                DEFAULT_HEALTHY_THRESHOLD, DEFAULT_UNHEALTHY_THRESHOLD, true, DEFAULT_WEIGHT, Map.of(),
                null, null, null, List.of(), QuorumPolicy.MAJORITY, 1);
    }

    public TargetSpec withTiming(int intervalMs, int timeoutMs) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withThresholds(int healthy, int unhealthy) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthy, unhealthy,
                enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withEnabled(boolean on) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, on, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    /**
     * The same target with its group and address replaced by the equal strings {@code share} returns (e.g.
     * {@link String#intern}), so that the many targets of one group or host hold one copy each: a prober keeps every
     * definition it probes in memory.
     */
    public TargetSpec withSharedText(UnaryOperator<String> share) {
        return new TargetSpec(id, share.apply(group), share.apply(address), port, protocol, intervalMs, timeoutMs,
                healthyThreshold, unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum,
                quorumAtLeast, profile, fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withGroup(String newGroup) {
        return new TargetSpec(id, newGroup, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withHttp(HttpSpec newHttp) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, newHttp, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withUdp(UdpSpec newUdp) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, newUdp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withTcp(TcpSpec newTcp) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, newTcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    public TargetSpec withDns(DnsSpec newDns) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, newDns, condition);
    }

    /** The same target with this CEL {@code condition} ({@code null}: none). */
    public TargetSpec withCondition(String newCondition) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, newCondition);
    }

    public TargetSpec withRegions(List<String> newRegions, QuorumPolicy newQuorum, int atLeast) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, newRegions, newQuorum, atLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, tls, dns, condition);
    }

    /** The same target with these state-dependent intervals ({@code null}: absent). */
    public TargetSpec withIntervals(Integer fast, Integer down) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fast, down, grpc, tls, dns, condition);
    }

    public TargetSpec withGrpc(GrpcSpec newGrpc) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, newGrpc, tls, dns, condition);
    }

    public TargetSpec withTls(TlsSpec newTls) {
        return new TargetSpec(id, group, address, port, protocol, intervalMs, timeoutMs, healthyThreshold,
                unhealthyThreshold, enabled, weight, labels, http, udp, tcp, regions, quorum, quorumAtLeast, profile,
                fastIntervalMs, downIntervalMs, grpc, newTls, dns, condition);
    }

    /** True when either state-dependent interval is set. */
    public boolean hasStateIntervals() {
        return fastIntervalMs != null || downIntervalMs != null;
    }

    /** The interval while a change of state is pending: {@code fastIntervalMs}, else {@code intervalMs}. */
    public int fastIntervalOrDefault() {
        return fastIntervalMs != null ? fastIntervalMs : intervalMs;
    }

    /** The interval while UNHEALTHY and no success is in sight: {@code downIntervalMs}, else {@code intervalMs}. */
    public int downIntervalOrDefault() {
        return downIntervalMs != null ? downIntervalMs : intervalMs;
    }

    /** The longest wait between two probes of one region's prober: what staleness must allow for. */
    public int longestIntervalMs() {
        return Math.max(intervalMs, Math.max(fastIntervalOrDefault(), downIntervalOrDefault()));
    }

    /** True when this target should be probed by a prober of {@code region}. */
    public boolean probedFrom(String region) {
        return regions.isEmpty() || regions.contains(region);
    }

    /** True when the probe runs over TLS: HTTPS, and GRPC with {@code grpc.tls}. */
    public boolean usesTls() {
        return protocol == Protocol.HTTPS || protocol == Protocol.GRPC && grpc.tls();
    }

    /** Whether the probe verifies the server's certificate chain and name, and why: {@link TlsVerification}. */
    public TlsVerification tlsVerification() {
        return TlsVerification.of(this);
    }

    /** True when the probe verifies the server's certificate chain and name ({@link TlsVerification#verifies}). */
    public boolean verifiesTls() {
        return tlsVerification().verifies();
    }

}
