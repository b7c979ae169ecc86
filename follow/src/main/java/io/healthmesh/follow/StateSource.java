package io.healthmesh.follow;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.ops.WorkerSettings;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Where a role that reads the state topics finds them: the brokers, the schema registry (with its client's
 * credentials and TLS keys), the topic names and the {@code kafka.*} pass-through. The status page and the data-plane
 * roles (xds, haproxy, dns) declare and read these settings through this one type.
 *
 * @param bootstrapServers the Kafka bootstrap servers
 * @param serdeConfig      the Avro serde's settings (Confluent's keys and the registry client's)
 * @param topics           the topic names, from {@code topic.prefix}
 * @param kafka            the {@code kafka.*} settings without their prefix
 */
public record StateSource(String bootstrapServers, Map<String, Object> serdeConfig, Topics topics,
                          Map<String, String> kafka) {

    private static final Setting<String> TOPIC_PREFIX = WorkerSettings.topicPrefix(Topics.DEFAULT_PREFIX);

    /** The settings this type reads; each role lists them among its own. */
    public static final List<Setting<?>> SETTINGS = List.of(WorkerSettings.BOOTSTRAP_SERVERS,
            WorkerSettings.SCHEMA_REGISTRY_URL, WorkerSettings.CREDENTIALS_SOURCE, WorkerSettings.USER_INFO,
            TOPIC_PREFIX);

    public StateSource {
        requireNonNull(bootstrapServers, "bootstrapServers");
        serdeConfig = Map.copyOf(requireNonNull(serdeConfig, "serdeConfig"));
        requireNonNull(topics, "topics");
        kafka = Map.copyOf(requireNonNull(kafka, "kafka"));
    }

    /** {@link #SETTINGS} followed by a role's own settings. */
    public static List<Setting<?>> withRoleSettings(List<? extends Setting<?>> own) {
        return Stream.concat(SETTINGS.stream(), own.stream()).<Setting<?>>map(s -> s).toList();
    }

    /** A reader of a role's settings that also accepts the registry client's keys ({@code schema.registry.ssl.*}). */
    public static SettingsReader reader(String role, Map<String, String> settings, List<Setting<?>> declared) {
        return new SettingsReader(role, settings, declared).accepting(RegistryClients::isClientKey);
    }

    /** Reads the source from {@code r}, which must be a {@link #reader}; problems are collected by {@code r}. */
    public static StateSource read(SettingsReader r, Map<String, String> settings) {
        String bootstrap = r.get(WorkerSettings.BOOTSTRAP_SERVERS);
        String registry = r.get(WorkerSettings.SCHEMA_REGISTRY_URL);
        String authSource = r.get(WorkerSettings.CREDENTIALS_SOURCE);
        String userInfo = r.get(WorkerSettings.USER_INFO);
        String prefix = r.get(TOPIC_PREFIX);
        Map<String, String> kafka = r.kafka();
        Map<String, Object> serde = registry == null ? Map.of()
                : RegistryClients.serdeConfig(registry, authSource, userInfo, RegistryClients.clientKeys(settings));
        return new StateSource(bootstrap == null ? "" : bootstrap, serde, new Topics(prefix), kafka);
    }

    /** The Kafka consumer's settings: the {@code kafka.*} pass-through, then the bootstrap servers. */
    public Map<String, String> consumerSettings() {
        Map<String, String> props = new TreeMap<>(kafka);
        props.put("bootstrap.servers", bootstrapServers);
        return props;
    }

    /** Never prints a credential: kafka.* may hold sasl.jaas.config, the registry URL a user and password. */
    @Override
    public String toString() {
        return "bootstrapServers=" + bootstrapServers + ", schemaRegistryUrl="
                + Redact.userInfo(String.valueOf(serdeConfig.get(RegistryClients.URL))) + ", topicPrefix="
                + topics.prefix() + ", kafka keys=" + kafka.keySet();
    }
}
