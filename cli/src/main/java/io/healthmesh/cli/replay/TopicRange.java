package io.healthmesh.cli.replay;

import io.healthmesh.cli.kafka.CompactedTopicReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The offsets of a topic that hold a time range, found with {@code offsetsForTimes} (so a range never reads the
 * whole topic), and the read of them. No consumer group: a read-only tool commits nothing.
 *
 * @param start first offset to read per partition
 * @param end offset to stop at per partition (exclusive)
 */
record TopicRange(String topic, Map<TopicPartition, Long> start, Map<TopicPartition, Long> end) {

    /** Records whose timestamp is in {@code [fromMs, toMs]} ({@code fromMs = Long.MIN_VALUE}: from the beginning). */
    static TopicRange of(KafkaConsumer<?, ?> consumer, String topic, long fromMs, long toMs, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        List<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions, timeout);
        Map<TopicPartition, Long> latest = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, Long> start = fromMs == Long.MIN_VALUE ? beginning : at(consumer, partitions, fromMs, latest,
                timeout);
        Map<TopicPartition, Long> end = toMs == Long.MAX_VALUE || toMs + 1 <= 0 ? latest
                : at(consumer, partitions, toMs + 1, latest, timeout);
        return new TopicRange(topic, start, end);
    }

    /** Records to read. */
    long size() {
        long n = 0;
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            n += Math.max(0, e.getValue() - start.getOrDefault(e.getKey(), e.getValue()));
        }
        return n;
    }

    /** Reads the range, each partition in offset order, handing every record to {@code sink}. */
    void read(KafkaConsumer<String, byte[]> consumer, Duration timeout, Consumer<ConsumerRecord<String, byte[]>> sink) {
        List<TopicPartition> partitions = end.keySet().stream()
                .filter(tp -> end.get(tp) > start.get(tp)).toList();
        consumer.assign(partitions);
        for (TopicPartition tp : partitions) {
            consumer.seek(tp, start.get(tp));
        }
        Instant deadline = Instant.now().plus(timeout);
        while (!done(consumer, partitions)) {
            var records = consumer.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                deadline = Instant.now().plus(timeout);
            } else if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("no progress reading " + topic + " for " + timeout);
            }
            for (ConsumerRecord<String, byte[]> r : records) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                if (r.offset() < end.get(tp)) {
                    sink.accept(r);
                }
            }
        }
        consumer.assign(List.of());
    }

    private boolean done(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private static Map<TopicPartition, Long> at(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, long ts,
                                                Map<TopicPartition, Long> latest, Duration timeout) {
        Map<TopicPartition, Long> query = new HashMap<>();
        partitions.forEach(tp -> query.put(tp, ts));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            OffsetAndTimestamp o = found.get(tp);
            // no record at or after ts: the range ends (or starts) at the partition's end
            offsets.put(tp, o == null ? latest.get(tp) : o.offset());
        }
        return offsets;
    }

    static java.util.Properties consumerProperties(java.util.Properties client) {
        java.util.Properties props = CompactedTopicReader.consumerProperties(client);
        props.put("max.poll.records", "5000");
        props.put("fetch.max.bytes", "52428800");
        // a partition read to its end must not hold a fetch for the default 500 ms while others still have records
        props.put("fetch.max.wait.ms", "100");
        return props;
    }
}
