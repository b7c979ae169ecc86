package io.healthmesh.notifier;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.util.HashMap;
import java.util.Map;

/**
 * The notifier's consumer properties: the {@code kafka.*} pass-through first, then what correctness depends on:
 * no auto-commit (offsets are committed after delivery), {@code read_committed} (the aggregator writes in
 * transactions), no topic auto-creation.
 */
final class KafkaProps {

    private KafkaProps() {
    }

    /** The group consumer of the state topics. */
    static Map<String, Object> stateConsumer(NotifierConfig config) {
        Map<String, Object> props = base(config, "state");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        boolean newProtocol = "consumer".equalsIgnoreCase(String.valueOf(props.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)));
        if (!newProtocol) {
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        }
        return props;
    }

    /** A consumer without a group (replaying a partition, following the targets topic). */
    static Map<String, Object> reader(NotifierConfig config, String purpose) {
        Map<String, Object> props = base(config, purpose);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return props;
    }

    private static Map<String, Object> base(NotifierConfig config, String purpose) {
        Map<String, Object> props = new HashMap<>(config.kafka());
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, config.groupId() + "-" + purpose + "-"
                + ProcessHandle.current().pid());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }
}
