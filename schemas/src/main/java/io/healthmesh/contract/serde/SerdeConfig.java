package io.healthmesh.contract.serde;

import org.apache.kafka.common.config.ConfigException;

import java.util.Locale;
import java.util.Map;

/**
 * The serde's own switches, read with Confluent's keys and defaults: {@code auto.register.schemas}
 * (true: the serializer registers the record's schema) and {@code use.latest.version} (true: the
 * serializer writes with the subject's latest schema instead). The registry keys are read by
 * {@link io.healthmesh.contract.registry.RegistryClients}.
 */
record SerdeConfig(boolean autoRegister, boolean useLatestVersion) {

    static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    static final String USE_LATEST_VERSION = "use.latest.version";

    static SerdeConfig from(Map<String, ?> config) {
        return new SerdeConfig(bool(config, AUTO_REGISTER_SCHEMAS, true), bool(config, USE_LATEST_VERSION, false));
    }

    private static boolean bool(Map<String, ?> config, String key, boolean defaultValue) {
        Object value = config.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim().toLowerCase(Locale.ROOT);
        if (text.equals("true") || text.equals("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new ConfigException(key, value, "expected: true or false");
    }
}
