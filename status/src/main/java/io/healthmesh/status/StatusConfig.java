package io.healthmesh.status;

import io.healthmesh.follow.StateSource;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Every setting of the {@code status} role, validated once by {@link #from}: where the topics are (Kafka, registry,
 * prefix), the listener, the page's own {@link StatusSettings} and the shared {@link HttpOptions}. Keys under
 * {@code kafka.} pass through to the feed's consumer with the prefix removed; any other unknown key is refused.
 *
 * @param source where the topics are read (brokers, registry with its client's settings, names, {@code kafka.*})
 * @param httpPort port of the page and the ops endpoints (0 = any free port)
 */
public record StatusConfig(StateSource source, String httpHost, int httpPort, StatusSettings page,
                           HttpOptions http) {

    public static final int DEFAULT_HTTP_PORT = 8084;
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);

    /** Every key besides {@code kafka.*} (docs/CONFIGURATION.md lists them). */
    public static final List<Setting<?>> SETTINGS = StateSource.withRoleSettings(Stream.of(
                    List.<Setting<?>>of(WorkerSettings.HTTP_HOST, HTTP_PORT), StatusSettings.SETTINGS,
                    HttpOptions.SETTINGS).<Setting<?>>flatMap(List::stream).toList());

    public StatusConfig {
        requireNonNull(source, "source");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(page, "page");
        requireNonNull(http, "http");
    }

    /**
     * Builds the config from settings; every problem is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every unknown key and invalid value, one per line,
     *     such as {@code status.history.size: 500 (expected: 0..200)}
     */
    public static StatusConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = StateSource.reader("status", settings, SETTINGS);
        StateSource source = StateSource.read(r, settings);
        String httpHost = r.get(WorkerSettings.HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        StatusSettings page = StatusSettings.read(r);
        HttpOptions http = HttpOptions.read(r);
        r.finish();
        return new StatusConfig(source, httpHost, httpPort, page, http);
    }

    /** Never prints a credential: the registry's user info and the tokens stay out. */
    @Override
    public String toString() {
        return "StatusConfig[" + source + ", http=" + httpHost + ":" + httpPort + ", " + page + ", " + http
                + "]";
    }
}
