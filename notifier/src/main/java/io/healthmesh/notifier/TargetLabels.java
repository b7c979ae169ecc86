package io.healthmesh.notifier;

import io.healthmesh.core.secret.Redact;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.serde.RecordDecodeException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows the targets topic (every partition, no group, from the beginning) to know each target's labels: state
 * events carry the group but not the labels, which routes filter on and Alertmanager alerts carry.
 * {@link #caughtUp()} is true once the topic was read to its end as of the start.
 */
final class TargetLabels implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetLabels.class);

    private final Map<String, Map<String, String>> labels = new ConcurrentHashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Deserializer<TargetDefinition> values;
    private final String topic;
    private final NotifierMetrics metrics;
    private final Thread thread;
    private volatile boolean caughtUp;
    private volatile boolean closed;

    TargetLabels(NotifierConfig config, NotifierMetrics metrics) {
        this.topic = config.topics().targets();
        this.metrics = metrics;
        this.consumer = new KafkaConsumer<>(KafkaProps.reader(config, "targets"));
        this.values = AvroSerde.forValues(TargetDefinition.class, config.serdeConfig()).deserializer();
        this.thread = new Thread(this::run, "healthmesh-notifier-targets");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** The target's labels; empty when unknown. */
    Map<String, String> of(String targetId) {
        return labels.getOrDefault(targetId, Map.of());
    }

    boolean caughtUp() {
        return caughtUp;
    }

    private void run() {
        try {
            List<TopicPartition> partitions = waitForTopic();
            if (partitions == null) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (!apply(r)) {
                        break; // rewound: the registry is away
                    }
                }
                if (!caughtUp && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                    caughtUp = true;
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("targets reader stopped: {}", e.toString());
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private List<TopicPartition> waitForTopic() throws WakeupException {
        while (!closed) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            }
            LOG.info("waiting for topic {}", topic);
            pause();
        }
        return null;
    }

    /** Applies one record; false when the registry could not be reached (the record will be read again). */
    private boolean apply(ConsumerRecord<byte[], byte[]> r) {
        if (r.key() == null) {
            return true;
        }
        String id = new String(r.key(), StandardCharsets.UTF_8);
        if (r.value() == null) {
            labels.remove(id);
            return true;
        }
        try {
            TargetDefinition d = values.deserialize(r.topic(), r.value());
            Map<String, String> l = new java.util.TreeMap<>();
            d.getLabels().forEach((k, v) -> l.put(k.toString(), v.toString()));
            labels.put(id, Map.copyOf(l));
        } catch (RecordDecodeException e) {
            metrics.undecodable();
        } catch (SerializationException e) {
            LOG.warn("targets: registry unreachable ({}); reading again in 1 s", Redact.userInfo(e.getMessage()));
            consumer.seek(new TopicPartition(r.topic(), r.partition()), r.offset());
            pause();
            return false;
        }
        return true;
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            closed = true;
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
