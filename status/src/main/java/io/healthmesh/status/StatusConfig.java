package io.healthmesh.status;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Every setting of the {@code status} role, validated once by {@link #from}: where the topics are (Kafka, registry,
 * prefix), the listener, the page's own {@link StatusSettings} and the shared {@link HttpOptions}. Keys under
 * {@code kafka.} pass through to the feed's consumer with the prefix removed; any other unknown key is refused.
 *
 * @param registryAuthSource Confluent's {@code basic.auth.credentials.source}, or null
 * @param registryUserInfo Confluent's {@code basic.auth.user.info}, or null
 * @param httpPort port of the page and the ops endpoints (0 = any free port)
 * @param kafka pass-through Kafka settings, {@code kafka.} removed
 * @param registryClient the registry client's TLS and plain-http settings, passed to the serdes as they are
 */
public record StatusConfig(String bootstrapServers, String schemaRegistryUrl, String registryAuthSource,
                           String registryUserInfo, Topics topics, String httpHost, int httpPort,
                           StatusSettings page, HttpOptions http, Map<String, String> kafka,
                           Map<String, String> registryClient) {

    public static final int DEFAULT_HTTP_PORT = 8084;
    private static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);
    private static final Setting<Integer> HTTP_PORT = WorkerSettings.httpPort(DEFAULT_HTTP_PORT);

    /** Every key besides {@code kafka.*} (docs/CONFIGURATION.md lists them). */
    public static final List<Setting<?>> SETTINGS = Stream.of(List.<Setting<?>>of(WorkerSettings.BOOTSTRAP_SERVERS,
                    WorkerSettings.SCHEMA_REGISTRY_URL, WorkerSettings.CREDENTIALS_SOURCE, WorkerSettings.USER_INFO,
                    TOPIC_PREFIX, WorkerSettings.HTTP_HOST, HTTP_PORT), StatusSettings.SETTINGS, HttpOptions.SETTINGS)
            .<Setting<?>>flatMap(List::stream).toList();

    public StatusConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        requireNonNull(topics, "topics");
        requireNonNull(httpHost, "httpHost");
        requireNonNull(page, "page");
        requireNonNull(http, "http");
        kafka = Map.copyOf(requireNonNull(kafka, "kafka"));
        registryClient = Map.copyOf(requireNonNull(registryClient, "registryClient"));
    }

    /**
     * Builds the config from settings; every problem is reported at once.
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every unknown key and invalid value, one per line,
     *     such as {@code status.history.size: 500 (expected: 0..200)}
     */
    public static StatusConfig from(Map<String, String> settings) {
        requireNonNull(settings, "settings");
        SettingsReader r = new SettingsReader("status", settings, SETTINGS).accepting(RegistryClients::isClientKey);
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String registry = r.get(WorkerSettings.SCHEMA_REGISTRY_URL);
        String authSource = r.get(WorkerSettings.CREDENTIALS_SOURCE);
        String userInfo = r.get(WorkerSettings.USER_INFO);
        String prefix = r.get(TOPIC_PREFIX);
        String httpHost = r.get(WorkerSettings.HTTP_HOST);
        int httpPort = r.get(HTTP_PORT);
        StatusSettings page = StatusSettings.read(r);
        Map<String, String> kafka = r.kafka();
        HttpOptions http = HttpOptions.read(r);
        r.finish();
        return new StatusConfig(bootstrap, registry, authSource, userInfo, new Topics(prefix), httpHost, httpPort,
                page, http, kafka, RegistryClients.clientKeys(settings));
    }

    /** The serde settings (Confluent's keys) of the feed's decoders. */
    public Map<String, Object> serdeConfig() {
        return RegistryClients.serdeConfig(schemaRegistryUrl, registryAuthSource, registryUserInfo, registryClient);
    }

    /** The feed consumer's settings: the {@code kafka.*} pass-through and the bootstrap servers. */
    public Map<String, String> consumer() {
        Map<String, String> client = new HashMap<>(kafka);
        client.put("bootstrap.servers", bootstrapServers);
        return client;
    }

    /** Never prints a credential: the registry's user info and the tokens stay out. */
    @Override
    public String toString() {
        return "StatusConfig[bootstrap.servers=" + bootstrapServers + ", schema.registry.url=" + schemaRegistryUrl
                + ", topics=" + topics.prefix() + "*, http=" + httpHost + ":" + httpPort + ", " + page + ", " + http
                + "]";
    }
}
