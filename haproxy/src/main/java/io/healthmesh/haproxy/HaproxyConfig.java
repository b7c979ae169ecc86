package io.healthmesh.haproxy;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.haproxy.mapping.HaproxyMapping;
import io.healthmesh.haproxy.mapping.MappingFile;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    private static final Setting<String> MAPPING_FILE = Setting.required("mapping.file", "a YAML or JSON file",
            "The mapping file (required).");
    private static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);
    private static final Setting<Integer> RECONCILE_INTERVAL_MS = Setting.integer("reconcile.interval.ms", 5000, 100,
            600_000, "A full pass over every instance at least this often (repairs a reload, a restart, a manual edit).");
    private static final Setting<Integer> SOCKET_TIMEOUT_MS = Setting.integer("socket.timeout.ms", 5000, 100, 60_000,
            "Deadline of a Runtime API connect, command or answer.");
    private static final Setting<Double> CHANGES_PER_SECOND = Setting.decimal("changes.per.second", 5, 0.01, 10_000,
            "Servers each instance may take out of service per second, after the burst.").documentedAs("5", null);
    private static final Setting<Integer> CHANGES_BURST = Setting.integer("changes.burst", 20, 1, 100_000,
            "Servers each instance may take out of service at once.");

    /** Every key besides {@code kafka.*}, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(WorkerSettings.BOOTSTRAP_SERVERS,
            WorkerSettings.SCHEMA_REGISTRY_URL, WorkerSettings.CREDENTIALS_SOURCE, WorkerSettings.USER_INFO,
            MAPPING_FILE, TOPIC_PREFIX, WorkerSettings.HTTP_HOST, HTTP_PORT, RECONCILE_INTERVAL_MS, SOCKET_TIMEOUT_MS,
            CHANGES_PER_SECOND, CHANGES_BURST);

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
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String registry = r.get(WorkerSettings.SCHEMA_REGISTRY_URL);
        String authSource = r.get(WorkerSettings.CREDENTIALS_SOURCE);
        String userInfo = r.get(WorkerSettings.USER_INFO);
        String prefix = r.get(TOPIC_PREFIX);
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
        return RegistryClients.serdeConfig(schemaRegistryUrl, registryAuthSource, registryUserInfo, Map.of());
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
