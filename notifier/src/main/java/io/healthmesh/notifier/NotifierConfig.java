package io.healthmesh.notifier;

import io.healthmesh.notifier.deliver.Backoff;
import io.healthmesh.notifier.route.RouteConfig;
import io.healthmesh.notifier.route.RouteFile;
import io.healthmesh.ops.Settings;
import io.healthmesh.contract.Topics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 */
public record NotifierConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                             String registryUserInfo, String groupId, Topics topics, String httpHost, int httpPort,
                             Path routesFile, List<RouteConfig> routes, Backoff backoff, Map<String, String> kafka) {

    /** One setting: key, default (null = required or absent), range and meaning. */
    public record Setting(String key, String defaultValue, String range, String doc) {
    }

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

    private static final Set<String> KEYS = Set.copyOf(SETTINGS.stream().map(Setting::key).toList());

    public NotifierConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(groupId, "groupId");
        requireNonNull(topics, "topics");
        requireNonNull(httpHost, "httpHost");
        routes = List.copyOf(routes);
        requireNonNull(backoff, "backoff");
        kafka = Map.copyOf(kafka);
    }

    /**
     * Builds the config; every problem (settings and route file) is reported at once.
     *
     * @throws IllegalArgumentException listing every problem, separated by {@code "; "}
     */
    public static NotifierConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        List<String> problems = new ArrayList<>();
        String bootstrap = required(settings, "bootstrap.servers", problems);
        String registry = required(settings, "schema.registry.url", problems);
        String authSource = trimmed(settings.get("basic.auth.credentials.source"));
        if (authSource != null && !authSource.equals("URL") && !authSource.equals("USER_INFO")) {
            problems.add("basic.auth.credentials.source: " + authSource + " (expected: URL or USER_INFO)");
        }
        String userInfo = trimmed(settings.get("basic.auth.user.info"));
        String group = matching(settings, "group.id", DEFAULT_GROUP_ID, GROUP, "1-200 of [A-Za-z0-9._-]", problems);
        String prefix = matching(settings, "topic.prefix", Topics.DEFAULT_PREFIX, TOPIC_PREFIX,
                "0-200 of [A-Za-z0-9._-]", problems);
        String httpHost = trimmed(settings.get("http.host"));
        int httpPort = integer(settings, "http.port", DEFAULT_HTTP_PORT, 0, 65_535, problems);
        int initial = integer(settings, "retry.initial.ms", 500, 10, 60_000, problems);
        int max = integer(settings, "retry.max.ms", 30_000, Math.max(10, initial), 3_600_000, problems);
        String routesText = required(settings, "routes.file", problems);
        List<RouteConfig> routes = List.of();
        if (!routesText.isEmpty()) {
            try {
                routes = RouteFile.load(Path.of(routesText));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        settings.keySet().stream()
                .filter(k -> !KEYS.contains(k) && !k.startsWith(Settings.KAFKA_PREFIX))
                .sorted()
                .forEach(k -> problems.add(k + ": unknown setting (expected: a key of docs/CONFIGURATION.md"
                        + " \"## Notifier\", or kafka.<Kafka client property>)"));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid notifier settings: " + String.join("; ", problems));
        }
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put(k.toString(), v.toString()));
        return new NotifierConfig(bootstrap, registry, authSource, userInfo, group, new Topics(prefix),
                httpHost == null ? "0.0.0.0" : httpHost, httpPort, Path.of(routesText), routes,
                new Backoff(Duration.ofMillis(initial), Duration.ofMillis(max)), kafka);
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
        return serde;
    }

    @Override
    public String toString() {
        // never print credentials: kafka.* may hold sasl.jaas.config, routes may hold Authorization headers
        return "NotifierConfig[bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl=" + schemaRegistryUrl
                + ", groupId=" + groupId + ", topicPrefix=" + topics.prefix() + ", http=" + httpHost + ":" + httpPort
                + ", routesFile=" + routesFile + ", routes=" + routes.stream().map(RouteConfig::name).toList()
                + ", backoff=" + backoff + ", kafka keys=" + kafka.keySet() + "]";
    }

    private static String trimmed(String v) {
        return v == null ? null : v.trim();
    }

    private static String required(Map<String, String> settings, String key, List<String> problems) {
        String v = trimmed(settings.get(key));
        if (v == null || v.isEmpty()) {
            problems.add(key + ": missing (expected: a value, this setting is required)");
            return "";
        }
        return v;
    }

    private static String matching(Map<String, String> settings, String key, String defaultValue, Pattern pattern,
                                   String expected, List<String> problems) {
        String v = trimmed(settings.get(key));
        if (v == null) {
            return defaultValue;
        }
        if (!pattern.matcher(v).matches()) {
            problems.add(key + ": " + v + " (expected: " + expected + ")");
        }
        return v;
    }

    private static int integer(Map<String, String> settings, String key, int defaultValue, int min, int max,
                               List<String> problems) {
        String v = trimmed(settings.get(key));
        if (v == null) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(key + ": " + v + " (expected: " + min + ".." + max + ")");
        return defaultValue;
    }
}
