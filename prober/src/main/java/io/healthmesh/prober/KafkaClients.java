package io.healthmesh.prober;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The prober's Kafka client properties: the {@code kafka.*} pass-through first (each key to the clients that
 * know it; keys neither knows, such as a custom login module's, to both), then what the prober's correctness
 * depends on, which a pass-through cannot change.
 */
final class KafkaClients {

    /** How long {@code producer.send} may wait for metadata: short, it runs on the publisher thread only. */
    static final String DEFAULT_MAX_BLOCK_MS = "1000";

    private KafkaClients() {
    }

    static Map<String, Object> consumer(ProberConfig config) {
        Map<String, Object> props = passThrough(config, ConsumerConfig.configNames(), ProducerConfig.configNames());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "healthmesh-prober-" + config.proberId() + "-targets");
        // reads always start at the beginning; committed offsets only mark what was judged (see TargetAssignment)
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the targets topic is quiet: without this a partition taken over waits behind a fetch the broker holds
        // for up to 500 ms, which is hand-over time
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
        // a prober started before the topics exist must not create the config topic with broker defaults
        // (not compacted, any partition count): it waits, not ready, until the topic is there
        props.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        boolean newProtocol = "consumer".equalsIgnoreCase(String.valueOf(props.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)));
        if (!newProtocol) {
            // the classic protocol needs the assignor named; KIP-848's is incremental by design and forbids it
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        }
        return props;
    }

    /** The reader of the endpoints topic: the consumer's settings without a group (it reads the whole topic). */
    static Map<String, Object> endpointsReader(ProberConfig config) {
        Map<String, Object> props = consumer(config);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "healthmesh-prober-" + config.proberId() + "-endpoints");
        return props;
    }

    static Map<String, Object> producer(ProberConfig config) {
        Map<String, Object> props = passThrough(config, ProducerConfig.configNames(), ConsumerConfig.configNames());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "healthmesh-prober-" + config.proberId());
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK_MS);
        // publish.* (compression, linger, batch size); a kafka.* pass-through of the same key wins
        config.publish().producerProperties().forEach(props::putIfAbsent);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return props;
    }

    /** The admin client that asks the group coordinator about the region's group (before shedding). */
    static Map<String, Object> admin(ProberConfig config) {
        Set<String> clients = new java.util.HashSet<>(ConsumerConfig.configNames());
        clients.addAll(ProducerConfig.configNames());
        Map<String, Object> props = passThrough(config, AdminClientConfig.configNames(), clients);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "healthmesh-prober-" + config.proberId() + "-admin");
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        // the admin client refuses an API timeout shorter than its request timeout, which kafka.* may raise
        long apiTimeout = 10_000;
        try {
            apiTimeout = Math.max(apiTimeout,
                    Long.parseLong(String.valueOf(props.get(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)).trim()));
        } catch (NumberFormatException e) {
            // Kafka's own config check reports it when the client is built
        }
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(apiTimeout));
        return props;
    }

    private static Map<String, Object> passThrough(ProberConfig config, Set<String> mine, Set<String> other) {
        Map<String, Object> props = new HashMap<>();
        config.kafka().forEach((key, value) -> {
            if (mine.contains(key) || !other.contains(key)) {
                props.put(key, value);
            }
        });
        return props;
    }
}
