package io.healthmesh.notifier;

import io.healthmesh.notifier.deliver.Backoff;
import io.healthmesh.notifier.route.RouteConfig;
import io.healthmesh.notifier.route.RouteFile;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.contract.Topics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The notifier's settings, immutable, from one validating factory {@link #from(Map)}: defaults applied, every range
 * checked, unknown keys rejected (other than {@code kafka.*}, passed to the Kafka clients without the prefix), and
 * the route file read and validated. Every key is in {@link #SETTINGS} and docs/CONFIGURATION.md.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param schemaRegistryUrl schema registry URL
 * @param registryAuthSource Confluent's {@code basic.auth.credentials.source}, or null
 * @param registryUserInfo Confluent's {@code basic.auth.user.info}, or null
 * @param groupId the consumer group shared by every replica (each event is handled by one of them)
 * @param topics topic names
 * @param httpHost bind address of the operations endpoint
 * @param httpPort its port (0 = any free port)
 * @param routesFile where the routes came from
 * @param routes the validated routes
 * @param backoff waits between delivery attempts
 * @param kafka Kafka client properties passed through
 * @param registryClient the registry client's TLS and plain-http settings ({@code schema.registry.ssl.*},
 *     {@code schema.registry.basic.auth.allow.insecure.http}), passed to the serdes as they are
 */
public record NotifierConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                             String registryUserInfo, String groupId, Topics topics, String httpHost, int httpPort,
                             Path routesFile, List<RouteConfig> routes, Backoff backoff, Map<String, String> kafka,
                             Map<String, String> registryClient) {

    public static final int DEFAULT_HTTP_PORT = 8083;
    public static final String DEFAULT_GROUP_ID = "healthmesh-notifier";
    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");

    /** Every key besides {@code kafka.*}, in documentation order. */
    public static final List<Setting> SETTINGS = List.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://...", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO", "How the registry client authenticates."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("routes.file", null, "a YAML or JSON file", "The route file (required)."),
            new Setting("group.id", DEFAULT_GROUP_ID, "1-200 of [A-Za-z0-9._-]",
                    "Consumer group of the notifier replicas: each state event is handled by one of them."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]", "Prefix of every topic name."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of /metrics, /healthz, /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of /metrics, /healthz, /readyz."),
            new Setting("retry.initial.ms", "500", "10..60000", "Wait after a failed delivery attempt; doubles after each."),
            new Setting("retry.max.ms", "30000", "retry.initial.ms..3600000", "Longest wait between attempts."));

    public NotifierConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(groupId, "groupId");
        requireNonNull(topics, "topics");
        requireNonNull(httpHost, "httpHost");
        routes = List.copyOf(routes);
        requireNonNull(backoff, "backoff");
        kafka = Map.copyOf(kafka);
        registryClient = Map.copyOf(registryClient);
    }

    /**
     * Builds the config; every problem (settings and route file) is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every problem
     */
    public static NotifierConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("notifier", settings, SETTINGS).accepting(RegistryClients::isClientKey);
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String group = r.matching("group.id", DEFAULT_GROUP_ID, GROUP, "1-200 of [A-Za-z0-9._-]");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]");
        String httpHost = r.text("http.host", "0.0.0.0");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        int initial = r.integer("retry.initial.ms", 500, 10, 60_000);
        int max = r.integer("retry.max.ms", 30_000, Math.max(10, initial), 3_600_000);
        String routesText = r.required("routes.file");
        List<RouteConfig> routes = List.of();
        if (!routesText.isEmpty()) {
            try {
                routes = RouteFile.load(Path.of(routesText));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        Map<String, String> kafka = r.kafka();
        r.finish();
        return new NotifierConfig(bootstrap, registry, authSource, userInfo, group, new Topics(prefix), httpHost,
                httpPort, Path.of(routesText), routes, new Backoff(Duration.ofMillis(initial), Duration.ofMillis(max)),
                kafka, RegistryClients.clientKeys(settings));
    }

    /** The serde config of the Avro values (Confluent's keys). */
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
        // never print credentials: kafka.* may hold sasl.jaas.config, routes may hold Authorization headers
        return "NotifierConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + Redact.userInfo(schemaRegistryUrl)
                + ", groupId=" + groupId + ", topicPrefix=" + topics.prefix() + ", http=" + httpHost + ":" + httpPort
                + ", routesFile=" + routesFile + ", routes=" + routes.stream().map(RouteConfig::name).toList()
                + ", backoff=" + backoff + ", kafka keys=" + kafka.keySet() + "]";
    }
}
