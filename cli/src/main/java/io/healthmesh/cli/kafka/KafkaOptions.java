package io.healthmesh.cli.kafka;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.contract.Topics;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where the cluster is, shared by the client subcommands ({@code targets}, {@code watch}): bootstrap address,
 * registry URL, topic prefix and a Kafka client properties file (security, SASL, SSL, registry credentials).
 * An explicit flag wins over the file, the file over the defaults.
 */
public final class KafkaOptions {

    public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";
    public static final String DEFAULT_REGISTRY = "http://127.0.0.1:8081";
    static final String REGISTRY_URL = "schema.registry.url";

    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: " + DEFAULT_BOOTSTRAP + ").")
    String bootstrapServer;

    @Option(names = "--schema-registry", paramLabel = "URL",
            description = "Schema registry URL (default: " + DEFAULT_REGISTRY + ").")
    String schemaRegistry;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = Topics.DEFAULT_PREFIX,
            description = "Prefix of the topic names (default: ${DEFAULT-VALUE}).")
    String topicPrefix;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*, basic.auth.user.info, ...).")
    Path commandConfig;

    /** Options pointing at a given cluster; for the demo and for tests. */
    public static KafkaOptions of(String bootstrapServers, String registryUrl, String prefix) {
        KafkaOptions o = new KafkaOptions();
        o.bootstrapServer = bootstrapServers;
        o.schemaRegistry = registryUrl;
        o.topicPrefix = prefix;
        return o;
    }

    public Topics topics() {
        return new Topics(topicPrefix);
    }

    /** Kafka client properties: the command config, then bootstrap servers, then bounded timeouts if unset. */
    public Properties clientProperties() {
        Properties props = fileProperties();
        props.remove(REGISTRY_URL);
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        // a CLI must fail within seconds when the cluster is away, not hang for the clients' minutes-long defaults
        props.putIfAbsent(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        props.putIfAbsent(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return props;
    }

    /** The serde configuration: every command-config key (Confluent style) and the registry URL. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> config = new HashMap<>();
        fileProperties().forEach((k, v) -> config.put(k.toString(), v));
        config.put(REGISTRY_URL, registryUrl());
        return config;
    }

    public String bootstrapServers() {
        if (bootstrapServer != null) {
            return bootstrapServer;
        }
        return fileProperties().getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, DEFAULT_BOOTSTRAP);
    }

    public String registryUrl() {
        if (schemaRegistry != null) {
            return schemaRegistry;
        }
        return fileProperties().getProperty(REGISTRY_URL, DEFAULT_REGISTRY);
    }

    private Properties fileProperties() {
        Properties props = new Properties();
        if (commandConfig == null) {
            return props;
        }
        try (Reader reader = Files.newBufferedReader(commandConfig, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (NoSuchFileException e) {
            throw new BadInputException("--command-config: " + commandConfig + ": file not found");
        } catch (IOException e) {
            throw new BadInputException("--command-config: " + commandConfig + ": " + e.getMessage());
        }
        return props;
    }
}
