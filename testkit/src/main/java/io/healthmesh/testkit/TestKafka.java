package io.healthmesh.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * What an integration test gets from {@link KafkaExtension}: a real broker and a schema registry, shared by every
 * test class of the JVM, with a few conveniences for creating topics that no other test uses.
 */
public final class TestKafka {

    /** How long topic creation may take before the test fails. */
    static final Duration TOPIC_PATIENCE = Duration.ofSeconds(30);
    /** The Confluent serde configuration key for the registry address. */
    public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";

    private final String bootstrapServers;
    private final String schemaRegistryUrl;
    private final Admin admin;
    private final TopicNames topicNames = new TopicNames();

    TestKafka(String bootstrapServers, String schemaRegistryUrl, Admin admin) {
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        this.schemaRegistryUrl = Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        this.admin = Objects.requireNonNull(admin, "admin");
    }

    /** The broker's address, {@code host:port}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The schema registry's base URL, e.g. {@code http://127.0.0.1:41234}. */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    /** The serde configuration for this registry ({@code schema.registry.url} set), ready for {@code AvroSerde.forValues}. */
    public Map<String, Object> serdeConfig() {
        return Map.of(SCHEMA_REGISTRY_URL_CONFIG, schemaRegistryUrl);
    }

    /** A new admin client for this broker; the caller closes it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** A topic name starting with {@code base} that no other test of the run uses, e.g. {@code targets-7-a1b2c3}. */
    public String uniqueTopic(String base) {
        return topicNames.unique(base);
    }

    /**
     * Creates a topic with one replica and returns once every partition has a leader, so producers and consumers
     * find it at once.
     *
     * @param compacted {@code cleanup.policy=compact} when true, the broker default ({@code delete}) otherwise
     * @throws IllegalStateException when the topic exists already or the broker refuses it
     */
    public void createTopic(String name, int partitions, boolean compacted) {
        Objects.requireNonNull(name, "name");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions: " + partitions + " (expected: >= 1)");
        }
        NewTopic topic = new NewTopic(name, partitions, (short) 1);
        if (compacted) {
            topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        try {
            admin.createTopics(List.of(topic)).all().get(TOPIC_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            CreatedTopics.awaitLed(admin, name, TOPIC_PATIENCE);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new IllegalStateException("topic " + name + " exists already (uniqueTopic(base) gives a fresh name)",
                        e.getCause());
            }
            throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("topic " + name + " not ready within " + TOPIC_PATIENCE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        }
    }

    @Override
    public String toString() {
        return "TestKafka[" + bootstrapServers + ", registry " + schemaRegistryUrl + "]";
    }
}
