package io.healthmesh.dnsfollow;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.dnsfollow.mapping.DnsMapping;
import io.healthmesh.dnsfollow.mapping.MappingFile;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The dns role's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every range
 * checked, unknown keys refused (other than {@code kafka.*}, passed to the Kafka consumer without the prefix, and the
 * registry client's {@code schema.registry.ssl.*}), and the mapping file read and validated with its keys' secrets.
 * Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md, "DNS".
 *
 * @param mapping the validated mapping (it holds the TSIG secrets: never printed)
 * @param reconcileInterval how often every name is compared with the zone even without an event
 * @param changesPerSecond record additions or deletions allowed per second in the long run
 * @param changesBurst record additions or deletions allowed at once
 * @param updateTimeout how long one query or update may take
 */
public record DnsFollowConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                              String registryUserInfo, Map<String, String> registryClient, Topics topics,
                              String httpHost, int httpPort, Path mappingFile, DnsMapping mapping,
                              Duration reconcileInterval, double changesPerSecond, int changesBurst,
                              Duration updateTimeout, Map<String, String> kafka) {

    public static final int DEFAULT_HTTP_PORT = 8088;
    public static final long DEFAULT_RECONCILE_INTERVAL_MS = 60_000;
    public static final double DEFAULT_CHANGES_PER_SECOND = 10;
    public static final int DEFAULT_CHANGES_BURST = 50;
    public static final long DEFAULT_UPDATE_TIMEOUT_MS = 5_000;
    private static final Setting<String> MAPPING_FILE = Setting.required("mapping.file", "a YAML or JSON file",
            "The DNS mapping file: names, zones, servers and TSIG keys (required).");
    private static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
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
    public static final List<Setting<?>> SETTINGS = List.of(WorkerSettings.BOOTSTRAP_SERVERS,
            WorkerSettings.SCHEMA_REGISTRY_URL, WorkerSettings.CREDENTIALS_SOURCE, WorkerSettings.USER_INFO,
            MAPPING_FILE, TOPIC_PREFIX, RECONCILE_INTERVAL_MS, CHANGES_PER_SECOND, CHANGES_BURST, UPDATE_TIMEOUT_MS,
            WorkerSettings.HTTP_HOST, HTTP_PORT);

    public DnsFollowConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        registryClient = Map.copyOf(requireNonNull(registryClient, "registryClient"));
        requireNonNull(topics, "topics");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(mappingFile, "mappingFile");
        requireNonNull(mapping, "mapping");
        requireNonNull(reconcileInterval, "reconcileInterval");
        requireNonNull(updateTimeout, "updateTimeout");
        kafka = Map.copyOf(requireNonNull(kafka, "kafka"));
    }

    /**
     * Builds the config; every problem (settings and mapping file) is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static DnsFollowConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("DNS", settings, SETTINGS).accepting(RegistryClients::isClientKey);
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String registry = r.get(WorkerSettings.SCHEMA_REGISTRY_URL);
        String authSource = r.get(WorkerSettings.CREDENTIALS_SOURCE);
        String userInfo = r.get(WorkerSettings.USER_INFO);
        String prefix = r.get(TOPIC_PREFIX);
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
        Map<String, String> kafka = r.kafka();
        r.finish();
        return new DnsFollowConfig(bootstrap, registry, authSource, userInfo, RegistryClients.clientKeys(settings),
                new Topics(prefix), httpHost, httpPort, Path.of(mappingText), mapping, Duration.ofMillis(interval),
                perSecond, burst, Duration.ofMillis(timeout), kafka);
    }

    /** The Kafka consumer's settings: the {@code kafka.*} pass-through and the bootstrap servers. */
    public Map<String, String> consumerSettings() {
        Map<String, String> props = new LinkedHashMap<>(kafka);
        props.put("bootstrap.servers", bootstrapServers);
        return props;
    }

    /** The serde config of the Avro values (Confluent's keys and the registry client's). */
    public Map<String, Object> serdeConfig() {
        return RegistryClients.serdeConfig(schemaRegistryUrl, registryAuthSource, registryUserInfo, registryClient);
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config; the mapping holds TSIG secrets
        return "DnsFollowConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + schemaRegistryUrl
                + ", topicPrefix=" + topics.prefix() + ", http=" + httpHost + ":" + httpPort + ", mappingFile="
                + mappingFile + ", names=" + mapping.names().size() + ", keys=" + mapping.keys().keySet()
                + ", reconcileInterval=" + reconcileInterval + ", changes=" + changesPerSecond + "/s burst "
                + changesBurst + ", updateTimeout=" + updateTimeout + ", kafka keys=" + kafka.keySet() + "]";
    }
}
