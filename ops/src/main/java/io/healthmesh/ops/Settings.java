package io.healthmesh.ops;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Loads a worker's settings: a properties file first, then environment variables on top.
 * {@code HEALTHMESH_SCHEMA_REGISTRY_URL} becomes {@code schema.registry.url}: the prefix is dropped, the rest
 * lower-cased and underscores turned into dots. Keys under {@code kafka.} are passed through to the Kafka clients
 * with the prefix removed (security, SASL, SSL...), see {@link #kafka}. Which keys are allowed is for each role's
 * config to decide: this class only gathers them.
 */
public final class Settings {

    /** Prefix of environment variables read as settings. */
    public static final String ENV_PREFIX = "HEALTHMESH_";
    /** Prefix of settings passed through to the Kafka clients. */
    public static final String KAFKA_PREFIX = "kafka.";
    /** Environment variables with this prefix that are not settings (the launcher's own). */
    private static final String JAVA_OPTS = "HEALTHMESH_JAVA_OPTS";

    private Settings() {
    }

    /**
     * The settings of a file (may be {@code null}) overridden by the environment.
     *
     * @throws IllegalArgumentException when the file does not exist or cannot be read
     */
    public static Map<String, String> load(Path fileOrNull, Map<String, String> env) {
        requireNonNull(env, "env");
        Map<String, String> settings = new TreeMap<>();
        if (fileOrNull != null) {
            Properties props = new Properties();
            try (Reader reader = Files.newBufferedReader(fileOrNull, StandardCharsets.UTF_8)) {
                props.load(reader);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("config file not found: " + fileOrNull, e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read config file " + fileOrNull + ": " + e.getMessage(), e);
            }
            props.stringPropertyNames().forEach(k -> settings.put(k.trim(), props.getProperty(k).trim()));
        }
        env.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && !name.equals(JAVA_OPTS) && name.length() > ENV_PREFIX.length()) {
                settings.put(keyOf(name), value);
            }
        });
        return settings;
    }

    /** The setting key an environment variable stands for: {@code HEALTHMESH_HTTP_PORT} -> {@code http.port}. */
    public static String keyOf(String envName) {
        return envName.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** The {@code kafka.*} settings with the prefix removed, ready for a Kafka client. */
    public static Properties kafka(Map<String, String> settings) {
        Properties props = new Properties();
        settings.forEach((k, v) -> {
            if (k.startsWith(KAFKA_PREFIX) && k.length() > KAFKA_PREFIX.length()) {
                props.put(k.substring(KAFKA_PREFIX.length()), v);
            }
        });
        return props;
    }
}
