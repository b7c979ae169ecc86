package io.healthmesh.prober;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.resolve.DnsConfig;
import io.healthmesh.prober.health.SheddingPolicy;

import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How a prober keeps its own trouble from voting against targets (BEHAVIOUR.md section 4), read from the settings by
 * {@link ProberConfig#from}: the INCONCLUSIVE bound, load shedding and the asynchronous resolver.
 *
 * @param inconclusiveFraction share of {@code min(interval, timeout)} a probe may start late, or its event loop may
 *     stall, before its timeout or error is {@code INCONCLUSIVE}; above 0, at most 1
 * @param dns the resolver's name servers, query timeout and cache TTLs
 * @param dnsMaxPending name lookups in flight at once; one more is {@code INCONCLUSIVE} ({@code queue-full})
 * @param shedding when the prober gives its targets up because it is overloaded
 */
public record ProberResilience(double inconclusiveFraction, DnsConfig dns, int dnsMaxPending, SheddingPolicy shedding) {

    public static final double DEFAULT_INCONCLUSIVE_FRACTION = 0.25;

    static final Setting<Double> INCONCLUSIVE_FRACTION = Setting.of("inconclusive.fraction",
            DEFAULT_INCONCLUSIVE_FRACTION, "above 0, at most 1", Double::valueOf, v -> v > 0 && v <= 1,
            "A probe that started later than fraction x min(interval, timeout) after its plan, or whose event"
                    + " loop stalled that long while it ran, and that timed out or failed with ERROR, is"
                    + " INCONCLUSIVE (late-start, loop-stall) instead of a failure.");
    static final Setting<String> DNS_SERVERS = Setting.text("dns.servers", "",
            "comma-separated IPs, each optionally :port; empty = /etc/resolv.conf",
            "Name servers of the asynchronous resolver (/etc/hosts is read first either way).");
    static final Setting<Integer> DNS_QUERY_TIMEOUT_MS = Setting.integer("dns.query.timeout.ms",
            DnsConfig.DEFAULT_QUERY_TIMEOUT_MS, 100, 60_000,
            "Timeout of one DNS query; the probe's deadline ends a lookup sooner.");
    static final Setting<Integer> DNS_MAX_PENDING = Setting.integer("dns.max.pending",
            ProbeEngineConfig.DEFAULT_MAX_PENDING_RESOLUTIONS, 1, 1_000_000,
            "Name lookups in flight at once; one more is INCONCLUSIVE (queue-full).");
    static final Setting<Integer> DNS_CACHE_MAX_TTL_S = Setting.integer("dns.cache.max.ttl.s",
            DnsConfig.DEFAULT_MAX_TTL_SECONDS, 0, 86_400,
            "Longest time an answer is cached (its own TTL rules when shorter).");
    static final Setting<Integer> DNS_CACHE_NEGATIVE_TTL_S = Setting.integer("dns.cache.negative.ttl.s",
            DnsConfig.DEFAULT_NEGATIVE_TTL_SECONDS, 0, 3_600,
            "How long NXDOMAIN, SERVFAIL or a server timeout is cached (0 = not cached).");
    static final Setting<Boolean> SHED_ENABLED = Setting.bool("shed.enabled", true,
            "Whether an overloaded prober leaves its group (not ready) so that others probe its targets; alone in"
                    + " its group it keeps them.");
    static final Setting<Integer> SHED_LAG_MS = Setting.integer("shed.lag.ms", (int) SheddingPolicy.DEFAULT_LAG_MS,
            10, 60_000, "A second is bad when the timer wheel or an event loop ran a task later than this.");
    // the percentage is kept as parsed / 100 x 100, as a fraction of the same text would be
    static final Setting<Double> SHED_STEAL_PERCENT = Setting.of("shed.steal.percent",
                    SheddingPolicy.DEFAULT_STEAL_PERCENT, "above 0, at most 100",
                    v -> 100 * (Double.parseDouble(v) / 100), v -> v > 0 && v / 100 <= 1,
                    "A second is bad when CPU steal (/proc/stat) was above this.")
            .documentedAs(Long.toString(Math.round(SheddingPolicy.DEFAULT_STEAL_PERCENT)), null);
    static final Setting<Integer> SHED_AFTER_S = Setting.integer("shed.after.s", SheddingPolicy.DEFAULT_AFTER_SAMPLES,
            1, 3_600, "Bad seconds in a row before the prober sheds.");
    static final Setting<Integer> SHED_RECOVER_S = Setting.integer("shed.recover.s",
            SheddingPolicy.DEFAULT_RECOVER_SAMPLES, 1, 3_600, "Good seconds in a row before a shedding prober joins again.");

    /** The settings this record reads, for {@link ProberConfig#SETTINGS}. */
    static final List<Setting<?>> SETTINGS = List.of(INCONCLUSIVE_FRACTION, DNS_SERVERS, DNS_QUERY_TIMEOUT_MS,
            DNS_MAX_PENDING, DNS_CACHE_MAX_TTL_S, DNS_CACHE_NEGATIVE_TTL_S, SHED_ENABLED, SHED_LAG_MS,
            SHED_STEAL_PERCENT, SHED_AFTER_S, SHED_RECOVER_S);

    public ProberResilience {
        requireNonNull(dns, "dns");
        requireNonNull(shedding, "shedding");
        INCONCLUSIVE_FRACTION.check(inconclusiveFraction);
        DNS_MAX_PENDING.check(dnsMaxPending);
    }

    /** Every default. */
    public static ProberResilience defaults() {
        return new ProberResilience(DEFAULT_INCONCLUSIVE_FRACTION, DnsConfig.DEFAULTS,
                ProbeEngineConfig.DEFAULT_MAX_PENDING_RESOLUTIONS, SheddingPolicy.DEFAULT);
    }

    static ProberResilience read(SettingsReader r) {
        double fraction = r.get(INCONCLUSIVE_FRACTION);
        List<String> servers = Arrays.stream(r.get(DNS_SERVERS).split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
        int queryTimeout = r.get(DNS_QUERY_TIMEOUT_MS);
        int maxPending = r.get(DNS_MAX_PENDING);
        int maxTtl = r.get(DNS_CACHE_MAX_TTL_S);
        int negativeTtl = r.get(DNS_CACHE_NEGATIVE_TTL_S);
        DnsConfig dns = DnsConfig.DEFAULTS;
        try {
            dns = new DnsConfig(servers, queryTimeout, maxTtl, negativeTtl);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        boolean shedEnabled = r.get(SHED_ENABLED);
        int lag = r.get(SHED_LAG_MS);
        double steal = r.get(SHED_STEAL_PERCENT);
        int after = r.get(SHED_AFTER_S);
        int recover = r.get(SHED_RECOVER_S);
        return new ProberResilience(fraction, dns, maxPending, new SheddingPolicy(shedEnabled, lag, steal, after, recover));
    }

    @Override
    public String toString() {
        return "inconclusiveFraction=" + inconclusiveFraction + ", dns=" + dns + ", dnsMaxPending=" + dnsMaxPending
                + ", shedding=" + shedding;
    }
}
