package io.healthmesh.registry;

import io.healthmesh.contract.Topics;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.WorkerSettings;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings only a registry has, each declared once with its type, default and range: {@link RegistryConfig}
 * lists them in its {@code SETTINGS} and reads them (the security ones through {@link RegistryConfig#security}).
 */
final class RegistrySettings {

    static final Setting<String> TOPIC = Setting.matching("registry.topic", Topics.SCHEMAS,
            Pattern.compile("[A-Za-z0-9._-]{1,249}"), "1-249 of [A-Za-z0-9._-]",
            "The compacted topic holding the schemas (created with one partition when missing).");
    static final Setting<Integer> PORT = WorkerSettings.httpPort(RegistryConfig.DEFAULT_PORT);
    static final Setting<String> AUTH = Setting.oneOf("registry.auth", "basic", List.of("basic", "none"),
            "HTTP basic authentication of the API.");
    static final Setting<String> USERS = Setting.text("registry.users", null,
            "name:role:password, comma-separated (role: read or admin)", "Users of the API, inline.");
    static final Setting<String> USERS_FILE = Setting.text("registry.users.file", null,
            "a file, one name:role:password per line", "Users of the API, from a file.");
    static final Setting<Boolean> ANONYMOUS_READ = Setting.bool("registry.anonymous.read", false,
            "Whether reads need no credentials (writes always do).");
    static final Setting<Boolean> DELETES = Setting.bool("registry.deletes.enable", false,
            "Whether DELETE requests are served.");
    static final Setting<Boolean> CONFIG_CHANGES = Setting.bool("registry.config.changes.enable", false,
            "Whether PUT /config and PUT /config/{subject} are served.");
    static final Setting<String> CERTIFICATE = Setting.text("registry.ssl.certificate.location", null, "a PEM file",
            "TLS certificate chain of the listener.");
    static final Setting<String> KEY = Setting.text("registry.ssl.key.location", null, "a PEM file",
            "TLS private key of the listener.");
    static final Setting<String> KEY_PASSWORD = Setting.text("registry.ssl.key.password", null, "a password",
            "Password of the PEM key, if encrypted.");
    static final Setting<String> KEY_STORE = Setting.text("registry.ssl.keystore.location", null, "a key store file",
            "TLS key store of the listener.");
    static final Setting<String> KEY_STORE_PASSWORD = Setting.text("registry.ssl.keystore.password", null,
            "a password", "Password of the key store.");
    static final Setting<String> KEY_STORE_TYPE = Setting.text("registry.ssl.keystore.type", "PKCS12",
            "PKCS12 or JKS", "Type of the key store.");
    static final Setting<String> CONTRACT_PREFIXES = Setting.text("registry.contract.topic.prefixes",
            Topics.DEFAULT_PREFIX, "comma-separated topic prefixes",
            "Prefixes whose contract value schemas are registered at start (empty: none).");

    private RegistrySettings() {
    }
}
