package io.healthmesh.cli.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a compacted topic from the beginning to its current end and returns the latest value of every key
 * (tombstones remove the key). Values stay bytes: decoding is the caller's, so one bad record cannot stop the read.
 * No consumer group is used: a read-only tool must not commit offsets or join anyone's group.
 */
public final class CompactedTopicReader {

    private CompactedTopicReader() {
    }

    /**
     * The latest value per key of {@code topic}.
     *
     * @throws IllegalStateException when the topic does not exist or nothing is read for {@code timeout} before the end
     */
    public static Map<String, byte[]> readToEnd(Properties clientProps, String topic, Duration timeout) {
        Properties props = consumerProperties(clientProps);
        try (KafkaConsumer<String, byte[]> consumer =
                     new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist");
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Map<String, byte[]> latest = new LinkedHashMap<>();
            Instant deadline = Instant.now().plus(timeout);
            while (!caughtUp(consumer, end)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("could not read " + topic + " to its end: nothing read for "
                            + timeout);
                }
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    // a large topic may take longer than the timeout: it bounds a stall, not the whole read
                    deadline = Instant.now().plus(timeout);
                }
                for (ConsumerRecord<String, byte[]> r : records) {
                    if (r.key() == null) {
                        continue;
                    }
                    if (r.value() == null) {
                        latest.remove(r.key());
                    } else {
                        latest.put(r.key(), r.value());
                    }
                }
            }
            return latest;
        }
    }

    /** Consumer properties for a group-less reader: no commits, no topic auto-creation. */
    public static Properties consumerProperties(Properties clientProps) {
        return io.healthmesh.contract.read.CompactedTopicReader.withoutGroup(clientProps);
    }

    /** True when every partition's position has reached the end offset taken at the start. */
    public static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
