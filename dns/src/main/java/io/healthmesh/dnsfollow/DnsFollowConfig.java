package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.mapping.DnsMapping;
import io.healthmesh.dnsfollow.mapping.MappingFile;
import io.healthmesh.follow.StateSource;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The dns role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every range
 * checked, unknown keys refused (other than {@code kafka.*}, passed to the Kafka consumer without the prefix, and the
 * registry client's {@code schema.registry.ssl.*}), and the mapping file read and validated with its keys' secrets.
 * Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md, "DNS".
 *
 * @param source where the state topics are read (brokers, registry, topic names, {@code kafka.*})
 * @param mapping the validated mapping (it holds the TSIG secrets: never printed)
 * @param reconcileInterval how often every name is compared with the zone even without an event
 * @param changesPerSecond record additions or deletions allowed per second in the long run
 * @param changesBurst record additions or deletions allowed at once
 * @param updateTimeout how long one query or update may take
 */
public record DnsFollowConfig(StateSource source, String httpHost, int httpPort, Path mappingFile,
                              DnsMapping mapping, Duration reconcileInterval, double changesPerSecond,
                              int changesBurst, Duration updateTimeout) {

    public static final int DEFAULT_HTTP_PORT = 8088;
    public static final long DEFAULT_RECONCILE_INTERVAL_MS = 60_000;
    public static final double DEFAULT_CHANGES_PER_SECOND = 10;
    public static final int DEFAULT_CHANGES_BURST = 50;
    public static final long DEFAULT_UPDATE_TIMEOUT_MS = 5_000;
    private static final Setting<String> MAPPING_FILE = Setting.required("mapping.file", "a YAML or JSON file",
            "The DNS mapping file: names, zones, servers and TSIG keys (required).");
    private static final Setting<Long> RECONCILE_INTERVAL_MS = Setting.longInteger("reconcile.interval.ms",
            DEFAULT_RECONCILE_INTERVAL_MS, 1_000, 86_400_000L,
            "How often every name is read back from its zone and repaired, events or not (a manual edit, a lost"
                    + " update, a server restored from an old zone file).");
    private static final Setting<Double> CHANGES_PER_SECOND = Setting.decimal("changes.per.second",
            DEFAULT_CHANGES_PER_SECOND, 0.1, 10_000.0,
            "Record additions and deletions allowed per second over all names; the rest wait their turn.");
    private static final Setting<Integer> CHANGES_BURST = Setting.integer("changes.burst", DEFAULT_CHANGES_BURST, 1,
            100_000, "Record additions and deletions allowed at once, before changes.per.second applies.");
    private static final Setting<Long> UPDATE_TIMEOUT_MS = Setting.longInteger("update.timeout.ms",
            DEFAULT_UPDATE_TIMEOUT_MS, 100, 60_000,
            "How long one query or update may take before it counts as unreachable.");
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);

    /** Every key besides {@code kafka.*} and {@code schema.registry.ssl.*}, in documentation order. */
    public static final List<Setting<?>> SETTINGS = StateSource.withRoleSettings(List.of(MAPPING_FILE,
            RECONCILE_INTERVAL_MS, CHANGES_PER_SECOND, CHANGES_BURST, UPDATE_TIMEOUT_MS,
            WorkerSettings.HTTP_HOST, HTTP_PORT));

    public DnsFollowConfig {
        requireNonNull(source, "source");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(mappingFile, "mappingFile");
        requireNonNull(mapping, "mapping");
        requireNonNull(reconcileInterval, "reconcileInterval");
        requireNonNull(updateTimeout, "updateTimeout");
    }

    /**
     * Builds the config; every problem (settings and mapping file) is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static DnsFollowConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = StateSource.reader("DNS", settings, SETTINGS);
        StateSource source = StateSource.read(r, settings);
        long interval = r.get(RECONCILE_INTERVAL_MS);
        double perSecond = r.get(CHANGES_PER_SECOND);
        int burst = r.get(CHANGES_BURST);
        long timeout = r.get(UPDATE_TIMEOUT_MS);
        String httpHost = r.get(WorkerSettings.HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        String mappingText = r.get(MAPPING_FILE);
        DnsMapping mapping = null;
        if (!mappingText.isEmpty()) {
            try {
                mapping = MappingFile.load(Path.of(mappingText));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        r.finish();
        return new DnsFollowConfig(source, httpHost, httpPort, Path.of(mappingText), mapping,
                Duration.ofMillis(interval), perSecond, burst, Duration.ofMillis(timeout));
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config; the mapping holds TSIG secrets
        return "DnsFollowConfig[" + source + ", http=" + httpHost + ":" + httpPort + ", mappingFile="
                + mappingFile + ", names=" + mapping.names().size() + ", keys=" + mapping.keys().keySet()
                + ", reconcileInterval=" + reconcileInterval + ", changes=" + changesPerSecond + "/s burst "
                + changesBurst + ", updateTimeout=" + updateTimeout + "]";
    }
}
