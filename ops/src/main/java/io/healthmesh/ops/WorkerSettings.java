package io.healthmesh.ops;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings every worker role reads the same way (Kafka, the schema registry, its listener, the topic prefix),
 * declared once here and listed in each role's {@code SETTINGS}. A role with a default of its own (the listener's
 * port, the topic prefix) takes the declaration for it from a factory.
 */
public final class WorkerSettings {

    private static final Pattern TOPIC_PREFIX = Pattern.compile("[A-Za-z0-9._-]{0,200}");

    public static final Setting<String> BOOTSTRAP_SERVERS = Setting.required("bootstrap.servers",
            "host:port[,host:port...]", "Kafka bootstrap servers (required).");
    public static final Setting<String> SCHEMA_REGISTRY_URL = Setting.required("schema.registry.url",
            "http(s)://... or mem://<scope>", "Schema registry URL (required).");
    public static final Setting<String> CREDENTIALS_SOURCE = Setting.oneOf("basic.auth.credentials.source", null,
            List.of("URL", "USER_INFO"), "How the registry client authenticates (Confluent's key).");
    public static final Setting<String> USER_INFO = Setting.text("basic.auth.user.info", null, "user:password",
            "Registry credentials with USER_INFO.");
    public static final Setting<String> HTTP_HOST = Setting.text("http.host", "0.0.0.0", "an address of this host",
            "Bind address of the role's HTTP listener (/metrics, /healthz, /readyz and its routes).");

    private WorkerSettings() {
    }

    /** {@code http.port}, the port of the role's HTTP listener, with the role's default. */
    public static Setting<Integer> httpPort(int defaultPort) {
        return Setting.integer("http.port", defaultPort, 0, 65_535,
                "Port of the role's HTTP listener (/metrics, /healthz, /readyz and its routes).")
                .noting("0 = any free port");
    }

    /** {@code topic.prefix}, the prefix of every topic name, with the contract's default. */
    public static Setting<String> topicPrefix(String defaultPrefix) {
        return Setting.matching("topic.prefix", defaultPrefix, TOPIC_PREFIX, "0-200 of [A-Za-z0-9._-]",
                "Prefix of every topic name.");
    }
}
