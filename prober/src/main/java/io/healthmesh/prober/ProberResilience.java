package io.healthmesh.prober;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.dns.DnsConfig;
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

    /** The settings this record reads, for {@link ProberConfig#SETTINGS}. */
    static final List<Setting> SETTINGS = List.of(
            new Setting("inconclusive.fraction", Double.toString(DEFAULT_INCONCLUSIVE_FRACTION),
                    "above 0, at most 1",
                    "A probe that started later than fraction x min(interval, timeout) after its plan, or whose event"
                            + " loop stalled that long while it ran, and that timed out or failed with ERROR, is"
                            + " INCONCLUSIVE (late-start, loop-stall) instead of a failure."),
            new Setting("dns.servers", "", "comma-separated IPs, each optionally :port; empty = /etc/resolv.conf",
                    "Name servers of the asynchronous resolver (/etc/hosts is read first either way)."),
            new Setting("dns.query.timeout.ms", Integer.toString(DnsConfig.DEFAULT_QUERY_TIMEOUT_MS),
                    "100..60000", "Timeout of one DNS query; the probe's deadline ends a lookup sooner."),
            new Setting("dns.max.pending", Integer.toString(ProbeEngineConfig.DEFAULT_MAX_PENDING_RESOLUTIONS),
                    "1..1000000", "Name lookups in flight at once; one more is INCONCLUSIVE (queue-full)."),
            new Setting("dns.cache.max.ttl.s", Integer.toString(DnsConfig.DEFAULT_MAX_TTL_SECONDS),
                    "0..86400", "Longest time an answer is cached (its own TTL rules when shorter)."),
            new Setting("dns.cache.negative.ttl.s", Integer.toString(DnsConfig.DEFAULT_NEGATIVE_TTL_SECONDS),
                    "0..3600", "How long NXDOMAIN, SERVFAIL or a server timeout is cached (0 = not cached)."),
            new Setting("shed.enabled", "true", "true or false",
                    "Whether an overloaded prober leaves its group (not ready) so that others probe its targets; alone in"
                            + " its group it keeps them."),
            new Setting("shed.lag.ms", Long.toString(SheddingPolicy.DEFAULT_LAG_MS), "10..60000",
                    "A second is bad when the timer wheel or an event loop ran a task later than this."),
            new Setting("shed.steal.percent", Long.toString(Math.round(SheddingPolicy.DEFAULT_STEAL_PERCENT)),
                    "above 0, at most 100", "A second is bad when CPU steal (/proc/stat) was above this."),
            new Setting("shed.after.s", Integer.toString(SheddingPolicy.DEFAULT_AFTER_SAMPLES), "1..3600",
                    "Bad seconds in a row before the prober sheds."),
            new Setting("shed.recover.s", Integer.toString(SheddingPolicy.DEFAULT_RECOVER_SAMPLES),
                    "1..3600", "Good seconds in a row before a shedding prober joins again."));

    public ProberResilience {
        requireNonNull(dns, "dns");
        requireNonNull(shedding, "shedding");
        if (!(inconclusiveFraction > 0 && inconclusiveFraction <= 1)) {
            throw new IllegalArgumentException("inconclusive.fraction: " + inconclusiveFraction
                    + " (expected: above 0, at most 1)");
        }
        if (dnsMaxPending < 1 || dnsMaxPending > 1_000_000) {
            throw new IllegalArgumentException("dns.max.pending: " + dnsMaxPending + " (expected: 1..1000000)");
        }
    }

    /** Every default. */
    public static ProberResilience defaults() {
        return new ProberResilience(DEFAULT_INCONCLUSIVE_FRACTION, DnsConfig.DEFAULTS,
                ProbeEngineConfig.DEFAULT_MAX_PENDING_RESOLUTIONS, SheddingPolicy.DEFAULT);
    }

    static ProberResilience read(SettingsReader r) {
        double fraction = positiveFraction(r, "inconclusive.fraction", DEFAULT_INCONCLUSIVE_FRACTION);
        String serverText = r.optional("dns.servers");
        List<String> servers = serverText == null ? List.of()
                : Arrays.stream(serverText.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        int queryTimeout = r.integer("dns.query.timeout.ms", DnsConfig.DEFAULT_QUERY_TIMEOUT_MS, 100, 60_000);
        int maxPending = r.integer("dns.max.pending", ProbeEngineConfig.DEFAULT_MAX_PENDING_RESOLUTIONS, 1, 1_000_000);
        int maxTtl = r.integer("dns.cache.max.ttl.s", DnsConfig.DEFAULT_MAX_TTL_SECONDS, 0, 86_400);
        int negativeTtl = r.integer("dns.cache.negative.ttl.s", DnsConfig.DEFAULT_NEGATIVE_TTL_SECONDS, 0, 3_600);
        DnsConfig dns = DnsConfig.DEFAULTS;
        try {
            dns = new DnsConfig(servers, queryTimeout, maxTtl, negativeTtl);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        String enabledText = r.optional("shed.enabled");
        boolean shedEnabled = true;
        if (enabledText != null) {
            if (enabledText.equalsIgnoreCase("true") || enabledText.equalsIgnoreCase("false")) {
                shedEnabled = Boolean.parseBoolean(enabledText);
            } else {
                r.problem("shed.enabled", enabledText, "true or false");
            }
        }
        int lag = r.integer("shed.lag.ms", (int) SheddingPolicy.DEFAULT_LAG_MS, 10, 60_000);
        double steal = SheddingPolicy.DEFAULT_STEAL_PERCENT;
        String stealText = r.optional("shed.steal.percent");
        if (stealText != null) {
            steal = 100 * positiveFraction(r, "shed.steal.percent", stealText, SheddingPolicy.DEFAULT_STEAL_PERCENT / 100);
        }
        int after = r.integer("shed.after.s", SheddingPolicy.DEFAULT_AFTER_SAMPLES, 1, 3_600);
        int recover = r.integer("shed.recover.s", SheddingPolicy.DEFAULT_RECOVER_SAMPLES, 1, 3_600);
        return new ProberResilience(fraction, dns, maxPending, new SheddingPolicy(shedEnabled, lag, steal, after, recover));
    }

    private static double positiveFraction(SettingsReader r, String key, double defaultValue) {
        String raw = r.optional(key);
        return raw == null ? defaultValue : positiveFraction(r, key, raw, defaultValue);
    }

    /** {@code raw} as a fraction in (0, 1]; for percentages, the caller divides first (the message shows raw). */
    private static double positiveFraction(SettingsReader r, String key, String raw, double defaultValue) {
        boolean percent = key.endsWith(".percent");
        try {
            double value = Double.parseDouble(raw) / (percent ? 100 : 1);
            if (value > 0 && value <= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        r.problem(key, raw, percent ? "above 0, at most 100" : "above 0, at most 1");
        return defaultValue;
    }

    @Override
    public String toString() {
        return "inconclusiveFraction=" + inconclusiveFraction + ", dns=" + dns + ", dnsMaxPending=" + dnsMaxPending
                + ", shedding=" + shedding;
    }
}
