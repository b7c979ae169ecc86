package io.healthmesh.aggregator;

import io.healthmesh.aggregator.domain.StalenessRule;
import io.healthmesh.ops.Settings;
import io.healthmesh.schemas.Topics;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Every setting of the aggregator, validated once by {@link #from}. Settings come from
 * {@link Settings#load} (file, then {@code HEALTHMESH_*} environment); keys under {@code kafka.} pass through to
 * Kafka Streams and its clients with the prefix removed; any other unknown key is refused. Each key is declared
 * once in {@link #DEFINITION} with its type, default, validator and doc (docs/CONFIGURATION.md lists them).
 *
 * @param applicationServer {@code host:port} other instances reach this one's query API at; {@code null} means
 *     {@code <http.host or 127.0.0.1>:<bound http port>}, enough for a single instance
 * @param kafka pass-through Kafka settings, {@code kafka.} removed
 * @param status the status page's settings
 */
public record AggregatorConfig(String bootstrapServers, String applicationId, Topics topics, String schemaRegistryUrl,
                               String basicAuthCredentialsSource, String basicAuthUserInfo, Path stateDir,
                               String httpHost, int httpPort, String applicationServer, StalenessRule staleness,
                               Duration punctuateInterval, Duration commitInterval, int partitions,
                               short replicationFactor, Map<String, String> kafka, StatusSettings status) {

    /**
     * The status page and the board-based gauges.
     *
     * @param enabled serve {@code /status/} (and read the topics it shows)
     * @param maxClients browsers connected to its event stream at once
     * @param historySize recent probe results kept per target for its latency history
     * @param perTargetMetrics also export one gauge series per target
     */
    public record StatusSettings(boolean enabled, int maxClients, int historySize, boolean perTargetMetrics) {
    }

    public static final String DEFAULT_APPLICATION_ID = "healthmesh-aggregator";
    public static final int DEFAULT_HTTP_PORT = 8082;
    public static final long DEFAULT_PUNCTUATE_INTERVAL_MS = 1_000;
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 100;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.\\-]+:[0-9]{1,5}|\\[[0-9A-Fa-f:.]+\\]:[0-9]{1,5}");

    /** Every key, with type, default, validator and doc. */
    public static final ConfigDef DEFINITION = new ConfigDef()
            .define("bootstrap.servers", ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Expect.notBlank(),
                    ConfigDef.Importance.HIGH, "Kafka bootstrap servers, host:port[,host:port...] (required).")
            .define("application.id", ConfigDef.Type.STRING, DEFAULT_APPLICATION_ID, Expect.matching(NAME,
                    "1-200 of [A-Za-z0-9._-]"), ConfigDef.Importance.HIGH,
                    "Kafka Streams application id: consumer group, transactional id prefix and internal topic prefix.")
            .define("topic.prefix", ConfigDef.Type.STRING, Topics.DEFAULT_PREFIX, Expect.matching(PREFIX,
                    "0-200 of [A-Za-z0-9._-]"), ConfigDef.Importance.MEDIUM, "Prefix of every healthmesh topic name.")
            .define("schema.registry.url", ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Expect.notBlank(),
                    ConfigDef.Importance.HIGH, "Schema registry URL, http(s)://... or mem://<scope> (required).")
            .define("basic.auth.credentials.source", ConfigDef.Type.STRING, null, Expect.oneOfOrNull("URL", "USER_INFO"),
                    ConfigDef.Importance.LOW, "How the registry client authenticates (Confluent's key): URL or USER_INFO.")
            .define("basic.auth.user.info", ConfigDef.Type.PASSWORD, null, ConfigDef.Importance.LOW,
                    "Registry credentials user:password, with USER_INFO.")
            .define("state.dir", ConfigDef.Type.STRING, Path.of(System.getProperty("java.io.tmpdir"),
                    DEFAULT_APPLICATION_ID).toString(), Expect.notBlank(), ConfigDef.Importance.MEDIUM,
                    "Directory of the local state stores (RocksDB); keep it across restarts to avoid a full restore.")
            .define("http.host", ConfigDef.Type.STRING, "0.0.0.0", Expect.notBlank(), ConfigDef.Importance.LOW,
                    "Bind address of /metrics, /healthz, /readyz and the query API.")
            .define("http.port", ConfigDef.Type.INT, DEFAULT_HTTP_PORT, Expect.between(0, 65_535),
                    ConfigDef.Importance.MEDIUM, "Port of /metrics, /healthz, /readyz and the query API (0 = any free port).")
            .define("application.server", ConfigDef.Type.STRING, "", Expect.emptyOr(HOST_PORT, "host:port"),
                    ConfigDef.Importance.MEDIUM, "host:port at which other instances reach this one's query API; "
                            + "empty = <http.host, or 127.0.0.1 when it is 0.0.0.0>:<bound http port> (one instance).")
            .define("staleness.factor", ConfigDef.Type.DOUBLE, StalenessRule.DEFAULT_FACTOR, Expect.between(1.0, 100.0),
                    ConfigDef.Importance.MEDIUM, "A region (and a target) is stale after factor x interval + timeout "
                            + "without a result.")
            .define("punctuate.interval.ms", ConfigDef.Type.LONG, DEFAULT_PUNCTUATE_INTERVAL_MS,
                    Expect.between(100L, 60_000L), ConfigDef.Importance.LOW,
                    "How often staleness is checked (wall-clock punctuation); adds at most this much to detection.")
            .define("commit.interval.ms", ConfigDef.Type.LONG, DEFAULT_COMMIT_INTERVAL_MS, Expect.between(10L, 60_000L),
                    ConfigDef.Importance.LOW, "Kafka Streams commit interval: with exactly-once, how long state "
                            + "events wait before read_committed consumers see them.")
            .define("partitions", ConfigDef.Type.INT, Topics.DEFAULT_PARTITIONS, Expect.between(1, 10_000),
                    ConfigDef.Importance.MEDIUM, "Partitions of the topics created at start (targets and probe-results "
                            + "share it); existing topics are checked, never changed.")
            .define("replication.factor", ConfigDef.Type.SHORT, (short) 1, Expect.between((short) 1, (short) 32),
                    ConfigDef.Importance.MEDIUM, "Replication of the topics created at start and of Kafka Streams' "
                            + "internal topics.")
            .define("status.page.enabled", ConfigDef.Type.BOOLEAN, true, ConfigDef.Importance.LOW,
                    "Serve the status page at /status/ and the per-group gauges (reads every partition of the state, "
                            + "group, targets and recent probe-results topics).")
            .define("status.max.clients", ConfigDef.Type.INT, 32, Expect.between(1, 1_000), ConfigDef.Importance.LOW,
                    "Browsers connected to the status page's event stream at once; more get 503.")
            .define("status.history.size", ConfigDef.Type.INT, 20, Expect.between(1, 200), ConfigDef.Importance.LOW,
                    "Recent probe results kept per target for the page's latency history.")
            .define("metrics.per.target", ConfigDef.Type.BOOLEAN, false, ConfigDef.Importance.LOW,
                    "Also export healthmesh_target_healthy and healthmesh_target_latency_seconds, one series per "
                            + "target (needs status.page.enabled).");

    public AggregatorConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(applicationId, "applicationId");
        requireNonNull(topics, "topics");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(stateDir, "stateDir");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(staleness, "staleness");
        requireNonNull(punctuateInterval, "punctuateInterval");
        requireNonNull(commitInterval, "commitInterval");
        requireNonNull(status, "status");
        kafka = Map.copyOf(requireNonNull(kafka, "kafka"));
    }

    /**
     * Builds the config from settings; every problem is reported at once.
     *
     * @throws IllegalArgumentException listing every unknown key and invalid value, one per line, such as
     *     {@code staleness.factor: 0.5 (expected: 1.0..100.0)}
     */
    public static AggregatorConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(settings.keySet())) {
            if (!DEFINITION.names().contains(key) && !key.startsWith(Settings.KAFKA_PREFIX)) {
                problems.add(key + ": unknown setting (expected: one of " + new TreeSet<>(DEFINITION.names())
                        + " or kafka.*)");
            }
        }
        Map<String, Object> values = new HashMap<>();
        for (ConfigDef.ConfigKey key : DEFINITION.configKeys().values()) {
            String raw = settings.get(key.name);
            try {
                Object value;
                if (raw == null) {
                    if (key.defaultValue == ConfigDef.NO_DEFAULT_VALUE) {
                        problems.add(key.name + ": missing (expected: a value, it is required)");
                        continue;
                    }
                    value = key.defaultValue;
                } else {
                    value = ConfigDef.parseType(key.name, raw, key.type);
                }
                if (key.validator != null) {
                    key.validator.ensureValid(key.name, value);
                }
                values.put(key.name, value);
            } catch (ConfigException e) {
                problems.add(e.getMessage().startsWith(key.name + ":") ? e.getMessage()
                        : key.name + ": " + raw + " (expected: " + key.type.toString().toLowerCase() + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid aggregator settings:\n  " + String.join("\n  ", problems));
        }
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put((String) k, (String) v));
        String server = (String) values.get("application.server");
        Password userInfo = (Password) values.get("basic.auth.user.info");
        return new AggregatorConfig((String) values.get("bootstrap.servers"), (String) values.get("application.id"),
                new Topics((String) values.get("topic.prefix")), (String) values.get("schema.registry.url"),
                (String) values.get("basic.auth.credentials.source"), userInfo == null ? null : userInfo.value(),
                Path.of((String) values.get("state.dir")), (String) values.get("http.host"),
                (Integer) values.get("http.port"), server.isEmpty() ? null : server,
                new StalenessRule((Double) values.get("staleness.factor")),
                Duration.ofMillis((Long) values.get("punctuate.interval.ms")),
                Duration.ofMillis((Long) values.get("commit.interval.ms")), (Integer) values.get("partitions"),
                (Short) values.get("replication.factor"), kafka,
                new StatusSettings((Boolean) values.get("status.page.enabled"),
                        (Integer) values.get("status.max.clients"), (Integer) values.get("status.history.size"),
                        (Boolean) values.get("metrics.per.target")));
    }

    /** The serde settings (Confluent's keys) for every Avro serde of the topology. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> serde = new HashMap<>();
        serde.put("schema.registry.url", schemaRegistryUrl);
        if (basicAuthCredentialsSource != null) {
            serde.put("basic.auth.credentials.source", basicAuthCredentialsSource);
        }
        if (basicAuthUserInfo != null) {
            serde.put("basic.auth.user.info", basicAuthUserInfo);
        }
        return serde;
    }

    /**
     * The Kafka Streams properties: exactly-once v2, this config's ids, directories and intervals, then the
     * {@code kafka.*} pass-through (which may refine anything but the processing guarantee).
     *
     * @param server the {@code application.server} to advertise
     */
    public Properties streamsProperties(String server) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitInterval.toMillis()));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Short.toString(replicationFactor));
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, requireNonNull(server, "server"));
        // a restart must neither lose nor repeat a state event: not negotiable, so set after the pass-through
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        return props;
    }

    /** Validators whose messages read {@code key: value (expected: ...)}. */
    static final class Expect {

        private Expect() {
        }

        static ConfigDef.Validator between(Number min, Number max) {
            return new Described(min + ".." + max, (name, value) -> {
                double v = ((Number) value).doubleValue();
                if (!(v >= min.doubleValue() && v <= max.doubleValue())) {
                    throw new ConfigException(name + ": " + value + " (expected: " + min + ".." + max + ")");
                }
            });
        }

        static ConfigDef.Validator notBlank() {
            return new Described("not blank", (name, value) -> {
                if (value == null || value.toString().isBlank()) {
                    throw new ConfigException(name + ": \"" + value + "\" (expected: not blank)");
                }
            });
        }

        static ConfigDef.Validator matching(Pattern pattern, String description) {
            return new Described(description, (name, value) -> {
                if (value == null || !pattern.matcher(value.toString()).matches()) {
                    throw new ConfigException(name + ": \"" + value + "\" (expected: " + description + ")");
                }
            });
        }

        static ConfigDef.Validator emptyOr(Pattern pattern, String description) {
            return new Described("empty or " + description, (name, value) -> {
                if (value != null && !value.toString().isEmpty() && !pattern.matcher(value.toString()).matches()) {
                    throw new ConfigException(name + ": \"" + value + "\" (expected: empty or " + description + ")");
                }
            });
        }

        static ConfigDef.Validator oneOfOrNull(String... allowed) {
            List<String> options = List.of(allowed);
            return new Described(String.join(" or ", options), (name, value) -> {
                if (value != null && !options.contains(value.toString())) {
                    throw new ConfigException(name + ": " + value + " (expected: " + String.join(" or ", options) + ")");
                }
            });
        }

        /** A validator that renders as its expectation in generated docs. */
        private record Described(String expectation, ConfigDef.Validator check) implements ConfigDef.Validator {
            @Override
            public void ensureValid(String name, Object value) {
                check.ensureValid(name, value);
            }

            @Override
            public String toString() {
                return expectation;
            }
        }
    }
}
