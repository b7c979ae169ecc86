package io.healthmesh.registry;

import io.healthmesh.ops.HttpLimits;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;
import io.healthmesh.contract.Topics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
    public static final List<Setting<?>> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            WorkerSettings.BOOTSTRAP_SERVERS, RegistrySettings.TOPIC, WorkerSettings.HTTP_HOST, RegistrySettings.PORT,
            RegistrySettings.AUTH, RegistrySettings.USERS, RegistrySettings.USERS_FILE, RegistrySettings.ANONYMOUS_READ,
            RegistrySettings.DELETES, RegistrySettings.CONFIG_CHANGES, RegistrySettings.CERTIFICATE,
            RegistrySettings.KEY, RegistrySettings.KEY_PASSWORD, RegistrySettings.KEY_STORE,
            RegistrySettings.KEY_STORE_PASSWORD, RegistrySettings.KEY_STORE_TYPE, RegistrySettings.CONTRACT_PREFIXES),
            HttpLimits.settings("registry.").stream()).toList();

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
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String topic = r.get(RegistrySettings.TOPIC);
        String host = r.get(WorkerSettings.HTTP_HOST);
        int port = r.get(RegistrySettings.PORT);
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
        String prefixes = r.get(RegistrySettings.CONTRACT_PREFIXES);
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
        String auth = RegistrySettings.AUTH.readFrom(settings);
        RegistryUsers users = RegistryUsers.none();
        String inline = RegistrySettings.USERS.readFrom(settings);
        if (inline != null && !inline.isBlank()) {
            users = users.and(RegistryUsers.parseInline(inline, RegistrySettings.USERS.key()));
        }
        String file = RegistrySettings.USERS_FILE.readFrom(settings);
        if (file != null && !file.isBlank()) {
            try {
                users = users.and(RegistryUsers.parse(Files.readAllLines(Path.of(file), StandardCharsets.UTF_8),
                        "registry.users.file " + file));
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
            default -> throw new IllegalStateException("registry.auth: " + auth); // readFrom refused any other
        };
        security = security.withAnonymousRead(RegistrySettings.ANONYMOUS_READ.readFrom(settings)
                        || !security.authenticate())
                .withDeletes(RegistrySettings.DELETES.readFrom(settings))
                .withConfigChanges(RegistrySettings.CONFIG_CHANGES.readFrom(settings));
        String cert = RegistrySettings.CERTIFICATE.readFrom(settings);
        String key = RegistrySettings.KEY.readFrom(settings);
        String keyStore = RegistrySettings.KEY_STORE.readFrom(settings);
        if (cert != null || key != null || keyStore != null) {
            // passwords are taken as written, spaces included
            security = security.withTls(new ListenerTls(cert == null ? null : Path.of(cert),
                    key == null ? null : Path.of(key), settings.get(RegistrySettings.KEY_PASSWORD.key()),
                    keyStore == null ? null : Path.of(keyStore),
                    settings.get(RegistrySettings.KEY_STORE_PASSWORD.key()),
                    RegistrySettings.KEY_STORE_TYPE.readFrom(settings)));
        }
        return security;
    }

    @Override
    public String toString() {
        // kafka properties may hold credentials (sasl.jaas.config): only their keys are shown
        return "RegistryConfig[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", host=" + host
                + ", port=" + port + ", kafka keys=" + new TreeMap<>(kafkaProperties).keySet() + ", security=" + security
                + ", limits=" + limits + ", contractPrefixes=" + contractPrefixes + "]";
    }
}
