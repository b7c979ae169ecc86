package io.healthmesh.haproxy;

import io.healthmesh.follow.StateSource;
import io.healthmesh.haproxy.mapping.HaproxyMapping;
import io.healthmesh.haproxy.mapping.MappingFile;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The haproxy role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every
 * range checked, unknown keys refused (other than {@code kafka.*}, passed to the follower's consumer, and the registry
 * client's {@code schema.registry.ssl.*}), and the
 * mapping file read and validated. Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md.
 *
 * @param source where the state topics are read (brokers, registry, topic names, {@code kafka.*})
 * @param httpHost bind address of the operations endpoint
 * @param httpPort its port (0 = any free port)
 * @param mappingFile where the mapping came from
 * @param mapping the validated mapping
 * @param interval time between two full passes over an instance when nothing changes
 * @param socketTimeout deadline of one Runtime API connect, write or answer
 * @param changesPerSecond the change budget's rate (servers taken out of service per second and instance)
 * @param changesBurst the change budget's burst
 */
public record HaproxyConfig(StateSource source, String httpHost, int httpPort, Path mappingFile,
                            HaproxyMapping mapping, Duration interval, Duration socketTimeout,
                            double changesPerSecond, int changesBurst) {

    public static final int DEFAULT_HTTP_PORT = 8086;
    private static final Setting<String> MAPPING_FILE = Setting.required("mapping.file", "a YAML or JSON file",
            "The mapping file (required).");
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);
    private static final Setting<Integer> RECONCILE_INTERVAL_MS = Setting.integer("reconcile.interval.ms", 5000, 100,
            600_000, "A full pass over every instance at least this often (repairs a reload, a restart, a manual edit).");
    private static final Setting<Integer> SOCKET_TIMEOUT_MS = Setting.integer("socket.timeout.ms", 5000, 100, 60_000,
            "Deadline of a Runtime API connect, command or answer.");
    private static final Setting<Double> CHANGES_PER_SECOND = Setting.decimal("changes.per.second", 5, 0.01, 10_000,
            "Servers each instance may take out of service per second, after the burst.").documentedAs("5", null);
    private static final Setting<Integer> CHANGES_BURST = Setting.integer("changes.burst", 20, 1, 100_000,
            "Servers each instance may take out of service at once.");

    /** Every key besides {@code kafka.*} and {@code schema.registry.ssl.*}, in documentation order. */
    public static final List<Setting<?>> SETTINGS = StateSource.withRoleSettings(List.of(MAPPING_FILE,
            WorkerSettings.HTTP_HOST, HTTP_PORT, RECONCILE_INTERVAL_MS, SOCKET_TIMEOUT_MS, CHANGES_PER_SECOND,
            CHANGES_BURST));

    public HaproxyConfig {
        requireNonNull(source, "source");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(mapping, "mapping");
        requireNonNull(interval, "interval");
        requireNonNull(socketTimeout, "socketTimeout");
    }

    /**
     * Builds the config; every problem (settings and mapping file) is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static HaproxyConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = StateSource.reader("haproxy", settings, SETTINGS);
        StateSource source = StateSource.read(r, settings);
        String httpHost = r.get(WorkerSettings.HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        int interval = r.get(RECONCILE_INTERVAL_MS);
        int socketTimeout = r.get(SOCKET_TIMEOUT_MS);
        double rate = r.get(CHANGES_PER_SECOND);
        int burst = r.get(CHANGES_BURST);
        String mappingText = r.get(MAPPING_FILE);
        HaproxyMapping mapping = null;
        if (!mappingText.isEmpty()) {
            try {
                mapping = MappingFile.load(Path.of(mappingText));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        r.finish();
        return new HaproxyConfig(source, httpHost, httpPort, Path.of(mappingText), mapping,
                Duration.ofMillis(interval), Duration.ofMillis(socketTimeout), rate, burst);
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, basic.auth.user.info a password
        return "HaproxyConfig[" + source + ", http=" + httpHost + ":" + httpPort + ", mappingFile="
                + mappingFile + ", instances=" + mapping.instances() + ", backends=" + mapping.backends().size()
                + ", interval=" + interval + ", socketTimeout=" + socketTimeout + ", changes=" + changesPerSecond
                + "/s burst " + changesBurst + "]";
    }
}
