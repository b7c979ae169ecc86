package io.healthmesh.status;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The status page's own settings, declared once for every role that serves the page (the {@code status} role, and
 * the aggregator with {@code status.page.enabled=true}).
 *
 * @param maxClients browsers connected to its event stream at once
 * @param historySize recent probe results kept per target for its latency history; 0 reads no probe results
 * @param perTargetMetrics also export one gauge series per target
 */
public record StatusSettings(int maxClients, int historySize, boolean perTargetMetrics) {

    public static final int DEFAULT_MAX_CLIENTS = 32;
    public static final int DEFAULT_HISTORY_SIZE = 20;

    static final Setting<Integer> MAX_CLIENTS = Setting.integer("status.max.clients", DEFAULT_MAX_CLIENTS, 1, 1_000,
            "Browsers connected to the status page's event stream at once; more get 503.");
    static final Setting<Integer> HISTORY_SIZE = Setting.integer("status.history.size", DEFAULT_HISTORY_SIZE, 0, 200,
            "Recent probe results kept per target for the page's latency history; 0 keeps none and reads"
                    + " no probe results (less heap and CPU for very many targets).");
    static final Setting<Boolean> PER_TARGET_METRICS = Setting.bool("metrics.per.target", false,
            "Also export healthmesh_target_healthy and healthmesh_target_latency_seconds, one series per"
                    + " target (only where the page is served).");

    /** The keys {@link #read} reads, with their defaults and ranges (docs/CONFIGURATION.md lists them). */
    public static final List<Setting<?>> SETTINGS = List.of(MAX_CLIENTS, HISTORY_SIZE, PER_TARGET_METRICS);

    /** The defaults of {@link #SETTINGS}. */
    public static StatusSettings defaults() {
        return new StatusSettings(DEFAULT_MAX_CLIENTS, DEFAULT_HISTORY_SIZE, false);
    }

    /** Reads the keys of {@link #SETTINGS}; a bad value is a problem of {@code reader}, and the default stands in. */
    public static StatusSettings read(SettingsReader reader) {
        requireNonNull(reader, "reader");
        return new StatusSettings(reader.get(MAX_CLIENTS), reader.get(HISTORY_SIZE), reader.get(PER_TARGET_METRICS));
    }
}
