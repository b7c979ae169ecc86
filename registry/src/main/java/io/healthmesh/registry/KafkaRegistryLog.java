package io.healthmesh.registry;

import io.healthmesh.contract.TopicReplication;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.RegistryLog;
import io.healthmesh.contract.registry.RegistryRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The registry's log in a compacted, single-partition Kafka topic (created when missing), written by
 * an idempotent producer with {@code acks=all} and read from the beginning at start. A write returns
 * only once the broker acknowledged it. Records this registry cannot read are skipped with a warning
 * rather than stopping the start.
 */
final class KafkaRegistryLog implements RegistryLog, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaRegistryLog.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REPLAY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final Map<String, Object> clientProperties;
    private final KafkaProducer<byte[], byte[]> producer;
    private final long writeWaitMs;

    private KafkaRegistryLog(String topic, Map<String, Object> clientProperties, KafkaProducer<byte[], byte[]> producer, long writeWaitMs) {
        this.topic = topic;
        this.clientProperties = clientProperties;
        this.producer = producer;
        this.writeWaitMs = writeWaitMs;
    }

    /** Makes sure the topic exists with one partition and compaction, and opens the producer. */
    static KafkaRegistryLog open(RegistryConfig config) {
        Map<String, Object> common = new HashMap<>(config.kafkaProperties());
        common.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        try (Admin admin = Admin.create(withClientId(common, "admin"))) {
            ensureTopic(admin, config.topic());
        }
        Map<String, Object> producerProps = withClientId(common, "producer");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // bounds on a write while Kafka is away; kafka.* settings may tighten them
        producerProps.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(WRITE_TIMEOUT.toMillis()));
        producerProps.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(WRITE_TIMEOUT.toMillis()));
        producerProps.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(WRITE_TIMEOUT.toMillis() / 3));
        long writeWaitMs = millis(producerProps, ProducerConfig.MAX_BLOCK_MS_CONFIG)
                + millis(producerProps, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG) + 5_000;
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
        return new KafkaRegistryLog(config.topic(), common, producer, writeWaitMs);
    }

    @Override
    public List<RegistryRecord> replay() {
        Map<String, Object> props = withClientId(clientProperties, "replay");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        List<RegistryRecord> records = new ArrayList<>();
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), ADMIN_TIMEOUT).get(partition);
            long deadline = System.nanoTime() + REPLAY_TIMEOUT.toNanos();
            while (consumer.position(partition, ADMIN_TIMEOUT) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + ": replay did not reach offset " + end + " within " + REPLAY_TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    try {
                        RegistryRecordCodec.decode(record.key(), record.value()).ifPresent(records::add);
                    } catch (RuntimeException e) {
                        LOG.warn("{} offset {}: skipped, not a registry record: {}", topic, record.offset(), e.getMessage());
                    }
                }
            }
        }
        LOG.info("Schema registry read {} records from {}", records.size(), topic);
        return records;
    }

    @Override
    public void append(RegistryRecord record) {
        RegistryRecordCodec.KeyValue keyValue = RegistryRecordCodec.encode(record);
        try {
            producer.send(new ProducerRecord<>(topic, 0, keyValue.key(), keyValue.value()))
                    .get(writeWaitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryException(RegistryException.STORE_ERROR, "Interrupted while writing to " + topic, e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new RegistryException(RegistryException.STORE_ERROR, "Cannot write to " + topic + ": " + cause, cause);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    private static void ensureTopic(Admin admin, String topic) {
        try {
            TopicDescription description = describe(admin, topic);
            if (description == null) {
                int brokers = admin.describeCluster().nodes().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).size();
                short replication = (short) Math.max(1, Math.min(3, brokers));
                // two copies must acknowledge a schema once there are three, as for every healthmesh topic
                String minInsync = Integer.toString(new TopicReplication(replication, true).minInsyncReplicas());
                NewTopic newTopic = new NewTopic(topic, 1, replication)
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, minInsync));
                try {
                    admin.createTopics(List.of(newTopic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    LOG.info("Created schema topic {} (1 partition, replication {}, compacted)", topic, replication);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
                description = describeOnceKnown(admin, topic);
            }
            if (description == null) {
                throw new IllegalStateException(topic + ": missing after creation");
            }
            if (description.partitions().size() != 1) {
                throw new IllegalStateException(topic + ": " + description.partitions().size()
                        + " partitions (expected: 1, the registry's log must be totally ordered)");
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = describeConfigOnceKnown(admin, resource);
            String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
            if (!policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT) || policy.contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
                throw new IllegalStateException(topic + ": cleanup.policy=" + policy
                        + " (expected: compact, or schemas would be deleted by retention)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot check or create the schema topic " + topic + ": "
                    + (e instanceof ExecutionException ? e.getCause() : e), e);
        }
    }

    /**
     * A topic just created is known to the controller before the answering broker's metadata has it: describe
     * says "unknown" for some milliseconds. Ask again until it is known or the admin timeout has passed.
     */
    private static TopicDescription describeOnceKnown(Admin admin, String topic)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        TopicDescription description = describe(admin, topic);
        while (description == null && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
            description = describe(admin, topic);
        }
        return description;
    }

    /**
     * The configs of a topic are answered by any broker, which may not know a topic just created yet (several
     * brokers): ask again, as {@link #describeOnceKnown} does.
     */
    private static Config describeConfigOnceKnown(Admin admin, ConfigResource resource)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                return admin.describeConfigs(Set.of(resource)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(resource);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    private static TopicDescription describe(Admin admin, String topic) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
    }

    private static long millis(Map<String, Object> props, String key) {
        String value = String.valueOf(props.get(key)).trim();
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("kafka." + key + ": " + value + " (expected: milliseconds)", e);
        }
    }

    private static Map<String, Object> withClientId(Map<String, Object> common, String role) {
        Map<String, Object> props = new HashMap<>(common);
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "healthmesh-registry-" + role);
        return props;
    }
}
