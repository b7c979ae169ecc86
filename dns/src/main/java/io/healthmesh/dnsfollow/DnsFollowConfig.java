package io.healthmesh.dnsfollow;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.dnsfollow.mapping.DnsMapping;
import io.healthmesh.dnsfollow.mapping.MappingFile;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");

    /** Every key besides {@code kafka.*} and {@code schema.registry.ssl.*}, in documentation order. */
    public static final List<Setting> SETTINGS = List.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://...", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO", "How the registry client authenticates."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("mapping.file", null, "a YAML or JSON file",
                    "The DNS mapping file: names, zones, servers and TSIG keys (required)."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]", "Prefix of every topic name."),
            new Setting("reconcile.interval.ms", Long.toString(DEFAULT_RECONCILE_INTERVAL_MS), "1000..86400000",
                    "How often every name is read back from its zone and repaired, events or not (a manual edit, a"
                            + " lost update, a server restored from an old zone file)."),
            new Setting("changes.per.second", "10.0", "0.1..10000.0",
                    "Record additions and deletions allowed per second over all names; the rest wait their turn."),
            new Setting("changes.burst", Integer.toString(DEFAULT_CHANGES_BURST), "1..100000",
                    "Record additions and deletions allowed at once, before changes.per.second applies."),
            new Setting("update.timeout.ms", Long.toString(DEFAULT_UPDATE_TIMEOUT_MS), "100..60000",
                    "How long one query or update may take before it counts as unreachable."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of /metrics, /healthz, /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz."));

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
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]");
        long interval = r.longInteger("reconcile.interval.ms", DEFAULT_RECONCILE_INTERVAL_MS, 1_000, 86_400_000L);
        double perSecond = r.decimal("changes.per.second", DEFAULT_CHANGES_PER_SECOND, 0.1, 10_000.0);
        int burst = r.integer("changes.burst", DEFAULT_CHANGES_BURST, 1, 100_000);
        long timeout = r.longInteger("update.timeout.ms", DEFAULT_UPDATE_TIMEOUT_MS, 100, 60_000);
        String httpHost = r.text("http.host", "0.0.0.0");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        String mappingText = r.required("mapping.file");
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
        Map<String, Object> serde = new LinkedHashMap<>();
        serde.put("schema.registry.url", schemaRegistryUrl);
        if (registryAuthSource != null) {
            serde.put("basic.auth.credentials.source", registryAuthSource);
        }
        if (registryUserInfo != null) {
            serde.put("basic.auth.user.info", registryUserInfo);
        }
        serde.putAll(registryClient);
        return serde;
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
