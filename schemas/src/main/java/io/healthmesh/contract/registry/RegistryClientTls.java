package io.healthmesh.contract.registry;

import org.apache.kafka.common.config.ConfigException;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS context of the registry client from Confluent's {@code schema.registry.ssl.*} keys: a trust store
 * ({@code schema.registry.ssl.truststore.location}, {@code .password}, {@code .type}) for registries whose
 * certificate the JVM's default trust does not cover, and a key store ({@code schema.registry.ssl.keystore.location},
 * {@code .password}, {@code .type}, {@code schema.registry.ssl.key.password}) for mutual TLS. Types default to
 * PKCS12. Host names are always verified. Passwords never appear in a message.
 */
final class RegistryClientTls {

    static final String PREFIX = "schema.registry.ssl.";
    static final String TRUSTSTORE_LOCATION = PREFIX + "truststore.location";
    static final String TRUSTSTORE_PASSWORD = PREFIX + "truststore.password";
    static final String TRUSTSTORE_TYPE = PREFIX + "truststore.type";
    static final String KEYSTORE_LOCATION = PREFIX + "keystore.location";
    static final String KEYSTORE_PASSWORD = PREFIX + "keystore.password";
    static final String KEYSTORE_TYPE = PREFIX + "keystore.type";
    static final String KEY_PASSWORD = PREFIX + "key.password";

    private RegistryClientTls() {
    }

    /** A context when a trust or key store is configured, else empty (the JVM's defaults apply to https). */
    static Optional<SSLContext> fromConfig(Map<String, ?> config) {
        String trust = string(config, TRUSTSTORE_LOCATION);
        String keys = string(config, KEYSTORE_LOCATION);
        if (trust == null && keys == null) {
            return Optional.empty();
        }
        try {
            TrustManagerFactory tmf = null;
            if (trust != null) {
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(TRUSTSTORE_LOCATION, trust, string(config, TRUSTSTORE_PASSWORD), type(config, TRUSTSTORE_TYPE)));
            }
            KeyManagerFactory kmf = null;
            if (keys != null) {
                String storePassword = string(config, KEYSTORE_PASSWORD);
                String keyPassword = string(config, KEY_PASSWORD);
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(load(KEYSTORE_LOCATION, keys, storePassword, type(config, KEYSTORE_TYPE)),
                        chars(keyPassword != null ? keyPassword : storePassword));
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            return Optional.of(context);
        } catch (GeneralSecurityException e) {
            throw new ConfigException(PREFIX + "*: cannot build a TLS context: " + e.getMessage());
        }
    }

    private static KeyStore load(String key, String location, String password, String type) {
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, chars(password));
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(key, location, "cannot be read as a " + type + " store: " + e.getMessage());
        }
    }

    private static String type(Map<String, ?> config, String key) {
        String type = string(config, key);
        return type == null ? "PKCS12" : type;
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    private static String string(Map<String, ?> config, String key) {
        Object value = config.get(key);
        if (value == null) {
            return null;
        }
        // Kafka's ConfigDef hands passwords over as org.apache.kafka.common.config.types.Password
        String text = value instanceof org.apache.kafka.common.config.types.Password p ? p.value() : value.toString();
        return text.isBlank() ? null : text.trim();
    }
}
