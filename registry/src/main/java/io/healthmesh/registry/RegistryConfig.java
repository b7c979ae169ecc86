package io.healthmesh.registry;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.contract.Topics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Where the registry keeps its schemas and where it listens.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param topic the compacted topic holding the schemas (created with one partition when missing)
 * @param host address the HTTP API binds
 * @param port port of the HTTP API, 0 for any free port
 * @param kafkaProperties Kafka client properties for the registry's admin, producer and consumer (security, SASL, SSL)
 */
public record RegistryConfig(String bootstrapServers, String topic, String host, int port, Map<String, String> kafkaProperties) {

    /** Confluent's default port. */
    public static final int DEFAULT_PORT = 8081;

    /**
     * Every key {@link #from} accepts besides {@code kafka.*}. The listener's keys are {@code http.host} and
     * {@code http.port}, as for every other role; {@code registry.topic} names what only a registry has.
     */
    public static final List<Setting> SETTINGS = List.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("registry.topic", Topics.SCHEMAS, "1-249 of [A-Za-z0-9._-]",
                    "The compacted topic holding the schemas (created with one partition when missing)."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of the registry's HTTP API."),
            new Setting("http.port", Integer.toString(DEFAULT_PORT), "0..65535 (0 = any free port)",
                    "Port of the registry's HTTP API, /metrics, /healthz and /readyz."));

    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

    public RegistryConfig {
        requireNonNull(bootstrapServers, "bootstrapServers");
        requireNonNull(topic, "topic");
        requireNonNull(host, "host");
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers: '' (expected: host:port[,host:port...])");
        }
        if (!topic.matches("[A-Za-z0-9._-]{1,249}")) {
            throw new IllegalArgumentException("topic: '" + topic + "' (expected: 1-249 of [A-Za-z0-9._-])");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
        }
        kafkaProperties = Map.copyOf(requireNonNull(kafkaProperties, "kafkaProperties"));
    }

    /** Topic {@code _schemas}, host 127.0.0.1, a free port, no extra Kafka properties. */
    public static RegistryConfig defaults(String bootstrapServers) {
        return new RegistryConfig(bootstrapServers, Topics.SCHEMAS, "127.0.0.1", 0, Map.of());
    }

    /**
     * Reads the role's settings ({@link #SETTINGS}, and {@code kafka.*} passed to the Kafka clients).
     *
     * @throws io.healthmesh.ops.InvalidSettingsException listing every unknown key and invalid value
     */
    public static RegistryConfig from(Map<String, String> settings) {
        SettingsReader r = new SettingsReader("registry", settings, SETTINGS);
        String bootstrap = r.required("bootstrap.servers");
        String topic = r.matching("registry.topic", Topics.SCHEMAS, TOPIC, "1-249 of [A-Za-z0-9._-]");
        String host = r.text("http.host", "0.0.0.0");
        int port = r.integer("http.port", DEFAULT_PORT, 0, 65_535);
        Map<String, String> kafka = r.kafka();
        r.finish();
        return new RegistryConfig(bootstrap, topic, host, port, kafka);
    }

    @Override
    public String toString() {
        // kafka properties may hold credentials (sasl.jaas.config): only their keys are shown
        return "RegistryConfig[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", host=" + host
                + ", port=" + port + ", kafka keys=" + new TreeMap<>(kafkaProperties).keySet() + "]";
    }
}
