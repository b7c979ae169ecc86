package io.healthmesh.contract.registry;

import io.healthmesh.core.secret.Redact;
import org.apache.kafka.common.config.ConfigException;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds a registry client from Confluent's client config keys: {@code schema.registry.url} (one
 * URL, a comma-separated list, or a list; {@code mem://<scope>} for an in-process registry),
 * {@code basic.auth.credentials.source} ({@code URL}, the default: user info taken from the URL; or
 * {@code USER_INFO}: taken from {@code basic.auth.user.info}), {@code http.connect.timeout.ms}
 * (default 10000) and {@code http.read.timeout.ms} (default 30000), {@code schema.registry.ssl.*} (trust and key
 * stores for https, see {@link RegistryClientTls}). Credentials are never sent over plain {@code http://}: such a
 * config is refused unless {@code schema.registry.basic.auth.allow.insecure.http=true} (loopback demos, a network
 * that is itself encrypted). The result caches (see {@link CachingRegistryClient}). Other keys are ignored: Kafka
 * hands serdes the whole client config.
 */
public final class RegistryClients {

    public static final String URL = "schema.registry.url";
    public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String USER_INFO = "basic.auth.user.info";
    public static final String CONNECT_TIMEOUT_MS = "http.connect.timeout.ms";
    public static final String READ_TIMEOUT_MS = "http.read.timeout.ms";
    /** true: basic-auth credentials may be sent over plain http (default false: such a config is refused). */
    public static final String ALLOW_INSECURE_HTTP = "schema.registry.basic.auth.allow.insecure.http";
    /** Prefix of the client's TLS settings (trust store, key store). */
    public static final String SSL_PREFIX = RegistryClientTls.PREFIX;

    private static final int DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
    private static final int DEFAULT_READ_TIMEOUT_MS = 30_000;

    private RegistryClients() {
    }

    /** A caching client for the registry the config names. */
    public static SchemaRegistryClient fromConfig(Map<String, ?> config) {
        List<String> urls = urls(config.get(URL));
        if (urls.stream().anyMatch(MemoryRegistries::isMemoryUrl)) {
            if (urls.size() != 1) {
                throw new ConfigException(URL, Redact.userInfo(String.join(",", urls)),
                        "a mem:// URL cannot be combined with others");
            }
            return new CachingRegistryClient(new LocalRegistryClient(MemoryRegistries.scope(MemoryRegistries.scopeOf(urls.get(0)))));
        }
        List<URI> uris = new ArrayList<>();
        for (String url : urls) {
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(URL, Redact.userInfo(url), "not a URL (expected: http(s)://host:port or mem://scope)");
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                throw new ConfigException(URL, Redact.userInfo(url), "expected: http(s)://host:port or mem://scope");
            }
            uris.add(uri);
        }
        Duration connect = Duration.ofMillis(positiveInt(config, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS));
        Duration read = Duration.ofMillis(positiveInt(config, READ_TIMEOUT_MS, DEFAULT_READ_TIMEOUT_MS));
        Optional<String> userInfo = userInfo(config, uris);
        if (userInfo.isPresent() && !allowInsecure(config)) {
            uris.stream().filter(u -> "http".equalsIgnoreCase(u.getScheme())).findFirst().ifPresent(u -> {
                throw new ConfigException(URL + ": " + u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                        + " with basic-auth credentials (expected: https://, or " + ALLOW_INSECURE_HTTP
                        + "=true to send the credentials in clear text)");
            });
        }
        return new CachingRegistryClient(new HttpRegistryClient(uris, userInfo, connect, read, RegistryClientTls.fromConfig(config)));
    }

    private static List<String> urls(Object value) {
        List<String> urls = new ArrayList<>();
        if (value instanceof Collection<?> list) {
            list.forEach(v -> urls.add(String.valueOf(v).trim()));
        } else if (value != null) {
            for (String url : value.toString().split(",")) {
                urls.add(url.trim());
            }
        }
        urls.removeIf(String::isEmpty);
        if (urls.isEmpty()) {
            throw new ConfigException(URL + ": missing (expected: http(s)://host:port or mem://scope)");
        }
        return urls;
    }

    private static Optional<String> userInfo(Map<String, ?> config, List<URI> uris) {
        Object source = config.get(CREDENTIALS_SOURCE);
        String sourceName = source == null ? "URL" : source.toString().trim().toUpperCase(Locale.ROOT);
        switch (sourceName) {
            case "USER_INFO" -> {
                Object userInfo = config.get(USER_INFO);
                if (userInfo == null || userInfo.toString().isEmpty() || !userInfo.toString().contains(":")) {
                    throw new ConfigException(USER_INFO, userInfo == null ? null : "(hidden)",
                            "expected: user:password when " + CREDENTIALS_SOURCE + "=USER_INFO");
                }
                return Optional.of(userInfo.toString());
            }
            case "URL" -> {
                return uris.stream().map(URI::getRawUserInfo).filter(u -> u != null && !u.isEmpty()).findFirst()
                        .map(u -> URLDecoder.decode(u, StandardCharsets.UTF_8));
            }
            default -> throw new ConfigException(CREDENTIALS_SOURCE, source, "expected: URL or USER_INFO");
        }
    }

    /**
     * True for the client keys a worker passes to its registry client besides URL and credentials:
     * {@code schema.registry.ssl.*} and {@link #ALLOW_INSECURE_HTTP}.
     */
    public static boolean isClientKey(String key) {
        return key.equals(ALLOW_INSECURE_HTTP) || key.startsWith(SSL_PREFIX) && key.length() > SSL_PREFIX.length();
    }

    /**
     * The serde config (Confluent's keys) of a worker: the registry URL, the credentials when given, and its other
     * client keys ({@link #clientKeys}).
     */
    public static Map<String, Object> serdeConfig(String url, String credentialsSource, String userInfo,
                                                  Map<String, String> clientKeys) {
        Map<String, Object> serde = new LinkedHashMap<>();
        serde.put(URL, url);
        if (credentialsSource != null) {
            serde.put(CREDENTIALS_SOURCE, credentialsSource);
        }
        if (userInfo != null) {
            serde.put(USER_INFO, userInfo);
        }
        serde.putAll(clientKeys);
        return serde;
    }

    /** The registry client's keys of a role's settings ({@link #isClientKey}), sorted. */
    public static SortedMap<String, String> clientKeys(Map<String, String> settings) {
        SortedMap<String, String> keys = new TreeMap<>();
        settings.forEach((k, v) -> {
            if (isClientKey(k)) {
                keys.put(k, v);
            }
        });
        return keys;
    }

    private static boolean allowInsecure(Map<String, ?> config) {
        Object value = config.get(ALLOW_INSECURE_HTTP);
        if (value == null || value instanceof Boolean b && !b) {
            return false;
        }
        if (value instanceof Boolean || value.toString().trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (value.toString().trim().equalsIgnoreCase("false")) {
            return false;
        }
        throw new ConfigException(ALLOW_INSECURE_HTTP, value, "expected: true or false");
    }

    static int positiveInt(Map<String, ?> config, String key, int defaultValue) {
        Object value = config.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(key, value, "expected: a positive number of milliseconds");
    }
}
