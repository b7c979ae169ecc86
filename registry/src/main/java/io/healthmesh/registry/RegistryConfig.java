package io.healthmesh.registry;

import io.healthmesh.ops.HttpLimits;
import io.healthmesh.ops.Settings;
import io.healthmesh.schemas.Topics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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
 * @param security authentication, roles, what is enabled, TLS of the listener
 * @param limits connection cap, timeouts and threads of the HTTP server
 * @param contractPrefixes topic prefixes whose contract value schemas are registered at start (none when empty)
 */
public record RegistryConfig(String bootstrapServers, String topic, String host, int port, Map<String, String> kafkaProperties,
                             RegistrySecurity security, HttpLimits limits, List<String> contractPrefixes) {

    /** Confluent's default port. */
    public static final int DEFAULT_PORT = 8081;

    /** The keys {@link #from} accepts besides {@code kafka.*}. */
    public static final Set<String> KEYS = keys();

    private static Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>(List.of("bootstrap.servers", "registry.topic", "registry.host", "registry.port",
                "registry.auth", "registry.users", "registry.users.file", "registry.anonymous.read", "registry.deletes.enable",
                "registry.config.changes.enable", "registry.ssl.certificate.location", "registry.ssl.key.location",
                "registry.ssl.key.password", "registry.ssl.keystore.location", "registry.ssl.keystore.password",
                "registry.ssl.keystore.type", "registry.contract.topic.prefixes"));
        keys.addAll(HttpLimits.keys("registry."));
        return Set.copyOf(keys);
    }

    /**
     * A registry without authentication, deletes and configuration changes on, plain HTTP, default HTTP limits:
     * for in-process tests and benchmarks on loopback ({@link RegistrySecurity#open()}).
     */
    public RegistryConfig(String bootstrapServers, String topic, String host, int port, Map<String, String> kafkaProperties) {
        this(bootstrapServers, topic, host, port, kafkaProperties, RegistrySecurity.open(),
                HttpLimits.defaults().withMaxBodyBytes(SchemaRegistryServer.MAX_BODY_BYTES), List.of());
    }

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
        requireNonNull(security, "security");
        requireNonNull(limits, "limits");
        contractPrefixes = List.copyOf(requireNonNull(contractPrefixes, "contractPrefixes"));
        for (String prefix : contractPrefixes) {
            if (!prefix.matches("[A-Za-z0-9._-]{0,200}")) {
                throw new IllegalArgumentException("registry.contract.topic.prefixes: " + prefix
                        + " (expected: 0-200 of [A-Za-z0-9._-] each)");
            }
        }
    }

    /** This config registering the contract's schemas for these topic prefixes at start. */
    public RegistryConfig withContractPrefixes(List<String> prefixes) {
        return new RegistryConfig(bootstrapServers, topic, host, port, kafkaProperties, security, limits, prefixes);
    }

    /** This config with other security settings. */
    public RegistryConfig withSecurity(RegistrySecurity newSecurity) {
        return new RegistryConfig(bootstrapServers, topic, host, port, kafkaProperties, newSecurity, limits, contractPrefixes);
    }

    /** Topic {@code _schemas}, host 127.0.0.1, a free port, no extra Kafka properties, open (tests only). */
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
        RegistrySecurity security = null;
        HttpLimits limits = null;
        try {
            security = security(settings);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        try {
            limits = HttpLimits.from(settings, "registry.").withMaxBodyBytes(SchemaRegistryServer.MAX_BODY_BYTES);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        Map<String, String> kafka = new TreeMap<>();
        Settings.kafka(settings).forEach((k, v) -> kafka.put(k.toString(), v.toString()));
        String prefixes = settings.getOrDefault("registry.contract.topic.prefixes", Topics.DEFAULT_PREFIX);
        List<String> contract = java.util.Arrays.stream(prefixes.split(",")).map(String::trim).filter(p -> !p.isEmpty()).toList();
        return new RegistryConfig(bootstrap, topic, host, port, kafka, security, limits, contract);
    }

    /**
     * {@code registry.auth} ({@code basic}, the default, or {@code none}), the users of {@code registry.users}
     * (inline) and {@code registry.users.file}, {@code registry.anonymous.read}, {@code registry.deletes.enable},
     * {@code registry.config.changes.enable} (all false by default) and the listener's TLS identity.
     */
    static RegistrySecurity security(Map<String, String> settings) {
        String auth = settings.getOrDefault("registry.auth", "basic").trim();
        RegistryUsers users = RegistryUsers.none();
        String inline = settings.get("registry.users");
        if (inline != null && !inline.isBlank()) {
            users = users.and(RegistryUsers.parseInline(inline, "registry.users"));
        }
        String file = settings.get("registry.users.file");
        if (file != null && !file.isBlank()) {
            try {
                users = users.and(RegistryUsers.parse(Files.readAllLines(Path.of(file.trim()), StandardCharsets.UTF_8),
                        "registry.users.file " + file.trim()));
            } catch (IOException e) {
                throw new IllegalArgumentException("registry.users.file: " + file + " cannot be read (" + e + ")");
            }
        }
        RegistrySecurity security = switch (auth) {
            case "basic" -> RegistrySecurity.basic(users);
            case "none" -> {
                if (!users.isEmpty()) {
                    throw new IllegalArgumentException("registry.users: given while registry.auth=none (expected: "
                            + "registry.auth=basic, or no users)");
                }
                yield new RegistrySecurity(false, users, true, false, false, null);
            }
            default -> throw new IllegalArgumentException("registry.auth: " + auth + " (expected: basic or none)");
        };
        security = security.withAnonymousRead(bool(settings, "registry.anonymous.read") || !security.authenticate())
                .withDeletes(bool(settings, "registry.deletes.enable"))
                .withConfigChanges(bool(settings, "registry.config.changes.enable"));
        String cert = settings.get("registry.ssl.certificate.location");
        String key = settings.get("registry.ssl.key.location");
        String keyStore = settings.get("registry.ssl.keystore.location");
        if (cert != null || key != null || keyStore != null) {
            security = security.withTls(new ListenerTls(cert == null ? null : Path.of(cert.trim()),
                    key == null ? null : Path.of(key.trim()), settings.get("registry.ssl.key.password"),
                    keyStore == null ? null : Path.of(keyStore.trim()), settings.get("registry.ssl.keystore.password"),
                    settings.getOrDefault("registry.ssl.keystore.type", "PKCS12").trim()));
        }
        return security;
    }

    private static boolean bool(Map<String, String> settings, String key) {
        String text = settings.get(key);
        if (text == null) {
            return false;
        }
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": " + text + " (expected: true or false)");
        };
    }

    @Override
    public String toString() {
        // kafka properties may hold credentials (sasl.jaas.config): only their keys are shown
        return "RegistryConfig[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", host=" + host
                + ", port=" + port + ", kafka keys=" + new TreeMap<>(kafkaProperties).keySet() + ", security=" + security
                + ", limits=" + limits + ", contractPrefixes=" + contractPrefixes + "]";
    }
}
