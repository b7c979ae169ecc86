package io.healthmesh.registry;

import io.healthmesh.ops.Settings;
import io.healthmesh.contract.Topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

    /** The keys {@link #from} accepts besides {@code kafka.*}. */
    public static final Set<String> KEYS = Set.of("bootstrap.servers", "registry.topic", "registry.host", "registry.port");

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
     * Reads the role's settings: {@code bootstrap.servers} (required), {@code registry.topic}
     * (default {@code _schemas}), {@code registry.host} (default {@code 0.0.0.0}),
     * {@code registry.port} (default 8081) and {@code kafka.*} passed to the Kafka clients.
     *
     * @throws IllegalArgumentException listing every unknown key and invalid value
     */
    public static RegistryConfig from(Map<String, String> settings) {
        List<String> problems = new ArrayList<>();
        new TreeMap<>(settings).keySet().stream()
                .filter(k -> !KEYS.contains(k) && !k.startsWith(Settings.KAFKA_PREFIX))
                .forEach(k -> problems.add(k + ": unknown setting (expected: one of " + String.join(", ", new TreeSet<>(KEYS))
                        + ", or kafka.<Kafka client property>)"));
        String bootstrap = settings.get("bootstrap.servers");
        if (bootstrap == null || bootstrap.isBlank()) {
            problems.add("bootstrap.servers: missing (expected: host:port[,host:port...])");
        }
        String topic = settings.getOrDefault("registry.topic", Topics.SCHEMAS);
        if (!topic.matches("[A-Za-z0-9._-]{1,249}")) {
            problems.add("registry.topic: '" + topic + "' (expected: 1-249 of [A-Za-z0-9._-])");
        }
        String host = settings.getOrDefault("registry.host", "0.0.0.0");
        int port = DEFAULT_PORT;
        String portText = settings.get("registry.port");
        if (portText != null) {
            try {
                port = Integer.parseInt(portText.trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                problems.add("registry.port: " + portText + " (expected: 0..65535)");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put(k.toString(), v.toString()));
        return new RegistryConfig(bootstrap, topic, host, port, kafka);
    }

    @Override
    public String toString() {
        // kafka properties may hold credentials (sasl.jaas.config): only their keys are shown
        return "RegistryConfig[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", host=" + host
                + ", port=" + port + ", kafka keys=" + new TreeMap<>(kafkaProperties).keySet() + "]";
    }
}
