package io.healthmesh.registry;

import io.healthmesh.ops.HttpLimits;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.contract.Topics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * @param security authentication, roles, what is enabled, TLS of the listener
 * @param limits connection cap, timeouts and threads of the HTTP server
 * @param contractPrefixes topic prefixes whose contract value schemas are registered at start (none when empty)
 */
public record RegistryConfig(String bootstrapServers, String topic, String host, int port, Map<String, String> kafkaProperties,
                             RegistrySecurity security, HttpLimits limits, List<String> contractPrefixes) {

    /** Confluent's default port. */
    public static final int DEFAULT_PORT = 8081;

    /**
     * Every key {@link #from} accepts besides {@code kafka.*}. The listener's keys are {@code http.host} and
     * {@code http.port}, as for every other role; {@code registry.*} names what only a registry has.
     */
    public static final List<Setting> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            new Setting("bootstrap.servers", null, "host:port[,host:port...]", "Kafka bootstrap servers (required)."),
            new Setting("registry.topic", Topics.SCHEMAS, "1-249 of [A-Za-z0-9._-]",
                    "The compacted topic holding the schemas (created with one partition when missing)."),
            new Setting("http.host", "0.0.0.0", "an address of this host", "Bind address of the registry's HTTP API."),
            new Setting("http.port", Integer.toString(DEFAULT_PORT), "0..65535 (0 = any free port)",
                    "Port of the registry's HTTP API, /metrics, /healthz and /readyz."),
            new Setting("registry.auth", "basic", "basic or none", "HTTP basic authentication of the API."),
            new Setting("registry.users", null, "name:role:password, comma-separated (role: read or admin)",
                    "Users of the API, inline."),
            new Setting("registry.users.file", null, "a file, one name:role:password per line",
                    "Users of the API, from a file."),
            new Setting("registry.anonymous.read", "false", "true or false",
                    "Whether reads need no credentials (writes always do)."),
            new Setting("registry.deletes.enable", "false", "true or false", "Whether DELETE requests are served."),
            new Setting("registry.config.changes.enable", "false", "true or false",
                    "Whether PUT /config and PUT /config/{subject} are served."),
            new Setting("registry.ssl.certificate.location", null, "a PEM file", "TLS certificate chain of the listener."),
            new Setting("registry.ssl.key.location", null, "a PEM file", "TLS private key of the listener."),
            new Setting("registry.ssl.key.password", null, "a password", "Password of the PEM key, if encrypted."),
            new Setting("registry.ssl.keystore.location", null, "a key store file", "TLS key store of the listener."),
            new Setting("registry.ssl.keystore.password", null, "a password", "Password of the key store."),
            new Setting("registry.ssl.keystore.type", "PKCS12", "PKCS12 or JKS", "Type of the key store."),
            new Setting("registry.contract.topic.prefixes", Topics.DEFAULT_PREFIX, "comma-separated topic prefixes",
                    "Prefixes whose contract value schemas are registered at start (empty: none).")),
            HttpLimits.settings("registry.").stream()).toList();

    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

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
        RegistrySecurity security = null;
        HttpLimits limits = null;
        try {
            security = security(settings);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        try {
            limits = HttpLimits.from(settings, "registry.").withMaxBodyBytes(SchemaRegistryServer.MAX_BODY_BYTES);
        } catch (IllegalArgumentException e) {
            r.problem(e.getMessage());
        }
        String prefixes = r.text("registry.contract.topic.prefixes", Topics.DEFAULT_PREFIX);
        List<String> contract = java.util.Arrays.stream(prefixes.split(",")).map(String::trim).filter(p -> !p.isEmpty())
                .toList();
        Map<String, String> kafka = r.kafka();
        r.finish();
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
