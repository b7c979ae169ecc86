package io.healthmesh.haproxy;

import io.healthmesh.contract.Topics;
import io.healthmesh.haproxy.mapping.HaproxyMapping;
import io.healthmesh.haproxy.mapping.MappingFile;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The haproxy role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every
 * range checked, unknown keys refused (other than {@code kafka.*}, passed to the follower's consumer), and the
 * mapping file read and validated. Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param schemaRegistryUrl schema registry URL
 * @param registryAuthSource Confluent's {@code basic.auth.credentials.source}, or null
 * @param registryUserInfo Confluent's {@code basic.auth.user.info}, or null
 * @param topicPrefix prefix of the topic names
 * @param httpHost bind address of the operations endpoint
 * @param httpPort its port (0 = any free port)
 * @param mappingFile where the mapping came from
 * @param mapping the validated mapping
 * @param interval time between two full passes over an instance when nothing changes
 * @param socketTimeout deadline of one Runtime API connect, write or answer
 * @param changesPerSecond the change budget's rate (servers taken out of service per second and instance)
 * @param changesBurst the change budget's burst
 * @param kafka Kafka client properties passed through
 */
public record HaproxyConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                            String registryUserInfo, String topicPrefix, String httpHost, int httpPort,
                            Path mappingFile, HaproxyMapping mapping, Duration interval, Duration socketTimeout,
                            double changesPerSecond, int changesBurst, Map<String, String> kafka) {

    public static final int DEFAULT_HTTP_PORT = 8086;
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");

    /** Every key besides {@code kafka.*}, in documentation order. */
    public static final List<Setting> SETTINGS = List.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://...", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO", "How the registry client authenticates."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("mapping.file", null, "a YAML or JSON file", "The mapping file (required)."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]", "Prefix of every topic name."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of /metrics, /healthz, /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz."),
            new Setting("reconcile.interval.ms", "5000", "100..600000",
                    "A full pass over every instance at least this often (repairs a reload, a restart, a manual edit)."),
            new Setting("socket.timeout.ms", "5000", "100..60000", "Deadline of a Runtime API connect, command or answer."),
            new Setting("changes.per.second", "5", "0.01..10000",
                    "Servers each instance may take out of service per second, after the burst."),
            new Setting("changes.burst", "20", "1..100000",
                    "Servers each instance may take out of service at once."));

    public HaproxyConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(topicPrefix, "topicPrefix");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(mapping, "mapping");
        requireNonNull(interval, "interval");
        requireNonNull(socketTimeout, "socketTimeout");
        kafka = Map.copyOf(kafka);
    }

    /**
     * Builds the config; every problem (settings and mapping file) is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static HaproxyConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("haproxy", settings, SETTINGS);
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]");
        String httpHost = r.text("http.host", "0.0.0.0");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        int interval = r.integer("reconcile.interval.ms", 5000, 100, 600_000);
        int socketTimeout = r.integer("socket.timeout.ms", 5000, 100, 60_000);
        double rate = r.decimal("changes.per.second", 5, 0.01, 10_000);
        int burst = r.integer("changes.burst", 20, 1, 100_000);
        String mappingText = r.required("mapping.file");
        HaproxyMapping mapping = null;
        if (!mappingText.isEmpty()) {
            try {
                mapping = MappingFile.load(Path.of(mappingText));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        Map<String, String> kafka = r.kafka();
        r.finish();
        return new HaproxyConfig(bootstrap, registry, authSource, userInfo, prefix, httpHost, httpPort,
                Path.of(mappingText), mapping, Duration.ofMillis(interval), Duration.ofMillis(socketTimeout), rate,
                burst, kafka);
    }

    /** The follower's Kafka client settings: the {@code kafka.*} keys and the brokers. */
    public Map<String, String> kafkaProps() {
        Map<String, String> props = new HashMap<>(kafka);
        props.put("bootstrap.servers", bootstrapServers);
        return props;
    }

    /** The Avro serde's settings: the registry and its credentials (Confluent's keys). */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> serde = new HashMap<>();
        serde.put("schema.registry.url", schemaRegistryUrl);
        if (registryAuthSource != null) {
            serde.put("basic.auth.credentials.source", registryAuthSource);
        }
        if (registryUserInfo != null) {
            serde.put("basic.auth.user.info", registryUserInfo);
        }
        return serde;
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, basic.auth.user.info a password
        return "HaproxyConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + schemaRegistryUrl
                + ", topicPrefix=" + topicPrefix + ", http=" + httpHost + ":" + httpPort + ", mappingFile="
                + mappingFile + ", instances=" + mapping.instances() + ", backends=" + mapping.backends().size()
                + ", interval=" + interval + ", socketTimeout=" + socketTimeout + ", changes=" + changesPerSecond
                + "/s burst " + changesBurst + ", kafka keys=" + kafka.keySet() + "]";
    }
}
