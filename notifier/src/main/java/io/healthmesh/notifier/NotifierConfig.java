package io.healthmesh.notifier;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.core.retry.Backoff;
import io.healthmesh.notifier.route.RouteConfig;
import io.healthmesh.notifier.route.RouteFile;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.ops.GroupMembership;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static io.healthmesh.ops.WorkerSettings.BOOTSTRAP_SERVERS;
import static io.healthmesh.ops.WorkerSettings.CREDENTIALS_SOURCE;
import static io.healthmesh.ops.WorkerSettings.HTTP_HOST;
import static io.healthmesh.ops.WorkerSettings.SCHEMA_REGISTRY_URL;
import static io.healthmesh.ops.WorkerSettings.USER_INFO;
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
    static final int DEFAULT_RETRY_INITIAL_MS = 500;
    static final int DEFAULT_RETRY_MAX_MS = 30_000;

    static final Setting<String> ROUTES_FILE = Setting.required("routes.file", "a YAML or JSON file",
            "The route file (required).");
    static final Setting<String> GROUP_ID = Setting.matching("group.id", DEFAULT_GROUP_ID, GROUP,
            "1-200 of [A-Za-z0-9._-]",
            "Consumer group of the notifier replicas: each state event is handled by one of them.");
    static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
    static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);
    static final Setting<Integer> RETRY_INITIAL_MS = Setting.integer("retry.initial.ms", DEFAULT_RETRY_INITIAL_MS,
            10, 60_000, "Wait after a failed delivery attempt; doubles after each.");
    static final Setting<Integer> RETRY_MAX_MS = Setting.integer("retry.max.ms", DEFAULT_RETRY_MAX_MS, 10,
            3_600_000, "Longest wait between attempts.").documentedAs(Integer.toString(DEFAULT_RETRY_MAX_MS),
            "retry.initial.ms..3600000");
    /**
     * Opt-in static membership (docs/operations/crash-recovery.md): no default, since replicas of one group share no
     * per-instance identity that is both stable and unique, and a duplicate id fences a replica.
     */
    static final Setting<String> GROUP_INSTANCE_ID = GroupMembership.instanceIdSetting(null);

    /** Every key besides {@code kafka.*}, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(BOOTSTRAP_SERVERS, SCHEMA_REGISTRY_URL,
            CREDENTIALS_SOURCE, USER_INFO, ROUTES_FILE, GROUP_ID, TOPIC_PREFIX, HTTP_HOST, HTTP_PORT,
            RETRY_INITIAL_MS, RETRY_MAX_MS, GROUP_INSTANCE_ID);

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
        String bootstrap = r.get(BOOTSTRAP_SERVERS);
        String registry = r.get(SCHEMA_REGISTRY_URL);
        String authSource = r.get(CREDENTIALS_SOURCE);
        String userInfo = r.get(USER_INFO);
        String group = r.get(GROUP_ID);
        String prefix = r.get(TOPIC_PREFIX);
        String httpHost = r.get(HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        int initial = r.get(RETRY_INITIAL_MS);
        // the longest wait is at least the first one: its range starts where retry.initial.ms ends
        int max = r.get(Setting.integer(RETRY_MAX_MS.key(), DEFAULT_RETRY_MAX_MS, Math.max(10, initial), 3_600_000,
                RETRY_MAX_MS.doc()));
        String routesText = r.get(ROUTES_FILE);
        List<RouteConfig> routes = List.of();
        if (!routesText.isEmpty()) {
            try {
                routes = RouteFile.load(Path.of(routesText));
            } catch (IllegalArgumentException e) {
                r.problem(e.getMessage());
            }
        }
        Map<String, String> kafka = GroupMembership.withDefaults(r.kafka(), r.get(GROUP_INSTANCE_ID));
        r.finish();
        return new NotifierConfig(bootstrap, registry, authSource, userInfo, group, new Topics(prefix), httpHost,
                httpPort, Path.of(routesText), routes, new Backoff(Duration.ofMillis(initial), Duration.ofMillis(max)),
                kafka, RegistryClients.clientKeys(settings));
    }

    /** The serde config of the Avro values (Confluent's keys). */
    public Map<String, Object> serdeConfig() {
        return RegistryClients.serdeConfig(schemaRegistryUrl, registryAuthSource, registryUserInfo, registryClient);
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
