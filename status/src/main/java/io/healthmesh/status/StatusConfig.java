package io.healthmesh.status;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.ops.HttpOptions;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
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
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");
    private static final Pattern NOT_BLANK = Pattern.compile(".*\\S.*");

    /** Every key besides {@code kafka.*} (docs/CONFIGURATION.md lists them). */
    public static final List<Setting> SETTINGS = Stream.of(Stream.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("schema.registry.url", null, "http(s)://... or mem://<scope>", "Schema registry URL (required)."),
            new Setting("basic.auth.credentials.source", null, "URL or USER_INFO",
                    "How the registry client authenticates (Confluent's key)."),
            new Setting("basic.auth.user.info", null, "user:password", "Registry credentials with USER_INFO."),
            new Setting("topic.prefix", Topics.DEFAULT_PREFIX, "0-200 of [A-Za-z0-9._-]",
                    "Prefix of every healthmesh topic name."),
            new Setting("http.host", "0.0.0.0", "an address of this host",
                    "Bind address of the status page, /metrics, /healthz and /readyz."),
            new Setting("http.port", Integer.toString(DEFAULT_HTTP_PORT), "0..65535 (0 = any free port)",
                    "Port of the status page, /metrics, /healthz and /readyz.")),
            StatusSettings.SETTINGS.stream(), HttpOptions.SETTINGS.stream()).flatMap(s -> s).toList();

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
        String bootstrap = r.required("bootstrap.servers");
        String registry = r.required("schema.registry.url");
        String authSource = r.oneOf("basic.auth.credentials.source", null, "URL", "USER_INFO");
        String userInfo = r.optional("basic.auth.user.info");
        String prefix = r.matching("topic.prefix", Topics.DEFAULT_PREFIX, PREFIX, "0-200 of [A-Za-z0-9._-]");
        String httpHost = r.matching("http.host", "0.0.0.0", NOT_BLANK, "an address of this host");
        int httpPort = r.integer("http.port", DEFAULT_HTTP_PORT, 0, 65_535);
        StatusSettings page = StatusSettings.read(r);
        Map<String, String> kafka = r.kafka();
        HttpOptions http = null;
        try {
            http = HttpOptions.from(settings);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        r.finish();
        return new StatusConfig(bootstrap, registry, authSource, userInfo, new Topics(prefix), httpHost, httpPort,
                page, http, kafka, RegistryClients.clientKeys(settings));
    }

    /** The serde settings (Confluent's keys) of the feed's decoders. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> serde = new HashMap<>();
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
